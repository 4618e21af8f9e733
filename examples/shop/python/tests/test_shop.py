"""End-to-end tests of the shop application, in the order the team wrote them.

They share the application's state, as real suites often do: later tests use the
accounts and products earlier tests created, and some rely on what earlier tests did
without naming it. See ../../EXPECTED.md.
"""

from pages import CataloguePage, LoginPage, Nav, SignUpPage, WelcomeDialog

ADMIN_EMAIL = "admin@shop.test"
ADMIN_PASSWORD = "s3cret-admin"


def test_login_admin(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    welcome = WelcomeDialog(driver)
    assert welcome.title() == "What's new in the shop"
    welcome.dismiss()
    assert Nav(driver).current_user() == "Ada Admin"


def test_add_product(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    admin = Nav(driver).go_to_admin()
    admin.add_product("Espresso Cup", "12.50")
    assert "Espresso Cup" in admin.active_names()


def test_add_second_product(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    admin = Nav(driver).go_to_admin()
    admin.add_product("Tea Pot", "30.00")
    assert "Tea Pot" in admin.active_names()


def test_register_customer(driver):
    SignUpPage(driver).sign_up("Carol", "Buyer", "carol@shop.test", "carolpass1")
    assert Nav(driver).current_user() == "Carol Buyer"


def test_login_customer(driver):
    LoginPage(driver).login("carol@shop.test", "carolpass1")
    welcome = WelcomeDialog(driver)
    assert welcome.title() == "What's new in the shop"
    welcome.dismiss()
    assert Nav(driver).current_user() == "Carol Buyer"


def test_search_products(driver):
    catalogue = CataloguePage(driver)
    catalogue.search("cup")
    assert catalogue.product_names() == ["Espresso Cup"]


def test_no_orders_yet(driver):
    LoginPage(driver).login("carol@shop.test", "carolpass1")
    orders = Nav(driver).go_to_orders()
    assert orders.no_orders_message() == "You have no orders yet"


def test_add_to_cart(driver):
    catalogue = LoginPage(driver).login("carol@shop.test", "carolpass1")
    cart = catalogue.open_product("Espresso Cup").add_to_cart()
    assert cart.items() == ["Espresso Cup x 1"]
    assert Nav(driver).cart_count() == "1"


def test_checkout(driver):
    LoginPage(driver).login("carol@shop.test", "carolpass1")
    order = Nav(driver).go_to_cart().check_out()
    assert order.title() == "Thank you for your order"
    assert order.total() == "12.50"


def test_order_history(driver):
    LoginPage(driver).login("carol@shop.test", "carolpass1")
    orders = Nav(driver).go_to_orders()
    assert orders.totals() == ["12.50"]


def test_archive_product(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    admin = Nav(driver).go_to_admin()
    admin.archive("Tea Pot")
    assert "Tea Pot" in admin.archived_names()


def test_restore_archived_products(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    admin = Nav(driver).go_to_admin()
    admin.restore_all()
    assert admin.no_archived_message() == "No archived products"


def test_count_products(driver):
    assert CataloguePage(driver).product_count() == "2 products"


def test_register_duplicate_customer(driver):
    sign_up = SignUpPage(driver)
    sign_up.sign_up("Carol", "Buyer", "carol@shop.test", "carolpass1")
    assert sign_up.error() == "Email has already been taken"
