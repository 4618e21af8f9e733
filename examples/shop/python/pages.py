"""Page objects of the shop application."""

from contextlib import contextmanager

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait


def _gone(element):
    """A wait condition: the element no longer belongs to the page (stale, or a node of
    a document being replaced)."""
    def check(_driver):
        try:
            element.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as e:
            if "does not belong to the document" in str(e) or "No node with given id" in str(e):
                return True
            raise
    return check


@contextmanager
def page_change(driver, timeout=5):
    """Wait after the block until the browser has left the current page and loaded the next.

    chromedriver's click() may return before a form submission or a link starts to
    load the next page; the next find_element would then still see the old one.
    """
    old_page = driver.find_element(By.TAG_NAME, "html")
    yield
    wait = WebDriverWait(driver, timeout, poll_frequency=0.05)
    wait.until(_gone(old_page))
    wait.until(lambda d: d.execute_script("return document.readyState") == "complete")


class Nav:
    """The navigation bar every page shows."""

    def __init__(self, driver):
        self.driver = driver

    def _follow(self, element_id):
        with page_change(self.driver):
            self.driver.find_element(By.ID, element_id).click()

    def current_user(self):
        return self.driver.find_element(By.ID, "current_user").text

    def cart_count(self):
        return self.driver.find_element(By.ID, "cart_count").text

    def go_to_catalogue(self):
        self._follow("catalogue_link")
        return CataloguePage(self.driver)

    def go_to_cart(self):
        self._follow("cart_link")
        return CartPage(self.driver)

    def go_to_orders(self):
        self._follow("orders_link")
        return OrdersPage(self.driver)

    def go_to_admin(self):
        self._follow("admin_link")
        return AdminProductsPage(self.driver)

    def sign_out(self):
        self._follow("sign_out_link")


class WelcomeDialog:
    """The "What's new" dialog a user sees after signing in, until dismissed once."""
    TITLE = (By.ID, "welcome_title")
    DISMISS = (By.ID, "dismiss_welcome")

    def __init__(self, driver):
        self.driver = driver

    def title(self):
        return self.driver.find_element(*self.TITLE).text

    def dismiss(self):
        with page_change(self.driver):
            self.driver.find_element(*self.DISMISS).click()


class LoginPage:
    EMAIL = (By.ID, "user_email")
    PASSWORD = (By.ID, "user_password")
    SIGN_IN_BUTTON = (By.ID, "sign_in_button")

    def __init__(self, driver):
        self.driver = driver

    def login(self, email, password):
        """From any signed-out page: sign in and land on the catalogue."""
        with page_change(self.driver):
            self.driver.find_element(By.ID, "sign_in_link").click()
        self.driver.find_element(*self.EMAIL).send_keys(email)
        self.driver.find_element(*self.PASSWORD).send_keys(password)
        with page_change(self.driver):
            self.driver.find_element(*self.SIGN_IN_BUTTON).click()
        return CataloguePage(self.driver)


class SignUpPage:
    def __init__(self, driver):
        self.driver = driver

    def sign_up(self, first, last, email, password):
        """From any signed-out page: create an account (which signs it in)."""
        with page_change(self.driver):
            self.driver.find_element(By.ID, "sign_up_link").click()
        self.driver.find_element(By.ID, "user_first_name").send_keys(first)
        self.driver.find_element(By.ID, "user_last_name").send_keys(last)
        self.driver.find_element(By.ID, "user_email").send_keys(email)
        self.driver.find_element(By.ID, "user_password").send_keys(password)
        with page_change(self.driver):
            self.driver.find_element(By.ID, "sign_up_button").click()

    def error(self):
        return self.driver.find_element(By.ID, "error").text


class CataloguePage:
    def __init__(self, driver):
        self.driver = driver

    def search(self, query):
        self.driver.find_element(By.ID, "search_query").send_keys(query)
        with page_change(self.driver):
            self.driver.find_element(By.ID, "search_button").click()

    def product_names(self):
        return [link.text for link in self.driver.find_elements(By.CSS_SELECTOR, "a.product")]

    def product_count(self):
        return self.driver.find_element(By.ID, "product_count").text

    def open_product(self, name):
        with page_change(self.driver):
            self.driver.find_element(By.LINK_TEXT, name).click()
        return ProductPage(self.driver)


class ProductPage:
    ADD_TO_CART = (By.ID, "add_to_cart")

    def __init__(self, driver):
        self.driver = driver

    def price(self):
        return self.driver.find_element(By.ID, "product_price").text

    def add_to_cart(self):
        # Clicks at once, as the button is on the page: it does not wait until the
        # button is enabled (it is, nearly always, by the time the page has loaded).
        with page_change(self.driver):
            self.driver.find_element(*self.ADD_TO_CART).click()
        return CartPage(self.driver)


class CartPage:
    def __init__(self, driver):
        self.driver = driver

    def items(self):
        return [li.text for li in self.driver.find_elements(By.CSS_SELECTOR, "#cart_items li")]

    def check_out(self):
        with page_change(self.driver):
            self.driver.find_element(By.ID, "checkout_button").click()
        return OrderPage(self.driver)


class OrderPage:
    def __init__(self, driver):
        self.driver = driver

    def title(self):
        return self.driver.find_element(By.ID, "order_title").text

    def total(self):
        return self.driver.find_element(By.ID, "order_total").text


class OrdersPage:
    def __init__(self, driver):
        self.driver = driver

    def no_orders_message(self):
        return self.driver.find_element(By.ID, "no_orders").text

    def totals(self):
        return [span.text for span in self.driver.find_elements(By.CSS_SELECTOR, "#orders .order_total")]


class AdminProductsPage:
    def __init__(self, driver):
        self.driver = driver

    def add_product(self, name, price):
        with page_change(self.driver):
            self.driver.find_element(By.ID, "add_product_link").click()
        self.driver.find_element(By.ID, "product_name_input").send_keys(name)
        self.driver.find_element(By.ID, "product_price_input").send_keys(price)
        with page_change(self.driver):
            self.driver.find_element(By.ID, "save_product_button").click()

    def _names(self, list_id):
        return [span.text for span in
                self.driver.find_elements(By.CSS_SELECTOR, f"#{list_id} .name")]

    def active_names(self):
        return self._names("active_products")

    def archived_names(self):
        return self._names("archived_products")

    def _press(self, list_id, name, button_class):
        row = self.driver.find_element(
            By.XPATH, f"//ul[@id='{list_id}']/li[span[@class='name' and text()='{name}']]")
        with page_change(self.driver):
            row.find_element(By.CLASS_NAME, button_class).click()

    def archive(self, name):
        self._press("active_products", name, "archive")

    def restore(self, name):
        self._press("archived_products", name, "restore")

    def restore_all(self):
        with page_change(self.driver):
            self.driver.find_element(By.ID, "restore_all_button").click()

    def no_archived_message(self):
        return self.driver.find_element(By.ID, "no_archived").text
