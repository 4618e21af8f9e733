"""End-to-end tests of the boards application, in the order the team wrote them.

They share the application's state on purpose (as real suites often do): later tests
use the users, boards and lists that earlier tests created. See ../../EXPECTED.md.
"""

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from pages import LoginPage, page_change

ADMIN_EMAIL = "john@phoenix-trello.com"
ADMIN_PASSWORD = "12345678"

CURRENT_USER = (By.ID, "current_user")
SIGN_OUT_LINK = (By.ID, "sign_out_link")
LIST_NAMES = (By.CLASS_NAME, "list_name")


def list_names(driver):
    return [element.text for element in driver.find_elements(*LIST_NAMES)]


def test_add_user(driver):
    sign_up_page = LoginPage(driver).go_to_sign_up()
    sign_up_page.sign_up("Jane", "Doe", "jane@boards.test", "janepass1")
    assert driver.find_element(*CURRENT_USER).text == "Jane Doe"
    with page_change(driver):
        driver.find_element(*SIGN_OUT_LINK).click()


def test_login_user(driver):
    LoginPage(driver).login("jane@boards.test", "janepass1")
    assert driver.find_element(*CURRENT_USER).text == "Jane Doe"


def test_add_board(driver):
    boards_page = LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    boards_page.add_board("Groceries")
    assert driver.find_element(By.LINK_TEXT, "Groceries").is_displayed()


def test_add_work_board(driver):
    boards_page = LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    boards_page.add_board("Work")
    assert driver.find_element(By.LINK_TEXT, "Work").is_displayed()


def test_share_board(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    with page_change(driver):
        driver.find_element(By.LINK_TEXT, "Groceries").click()
    driver.find_element(By.ID, "member_email").send_keys("jane@boards.test")
    with page_change(driver):
        driver.find_element(By.ID, "add_member_button").click()
    assert "jane@boards.test" in driver.find_element(By.ID, "members").text


def test_add_list_to_board(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    with page_change(driver):
        driver.find_element(By.LINK_TEXT, "Groceries").click()
    driver.find_element(By.ID, "list_name").send_keys("Fruit")
    with page_change(driver):
        driver.find_element(By.ID, "add_list_button").click()
    assert "Fruit" in list_names(driver)


def test_rename_list(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    with page_change(driver):
        driver.find_element(By.LINK_TEXT, "Groceries").click()
    Select(driver.find_element(By.ID, "rename_list_select")).select_by_visible_text("Fruit")
    driver.find_element(By.ID, "new_list_name").send_keys("Vegetables")
    with page_change(driver):
        driver.find_element(By.ID, "rename_list_button").click()
    assert "Vegetables" in list_names(driver)


def test_view_shared_board(driver):
    LoginPage(driver).login("jane@boards.test", "janepass1")
    shared_boards = driver.find_element(By.ID, "shared_boards")
    with page_change(driver):
        shared_boards.find_element(By.LINK_TEXT, "Groceries").click()
    assert "Vegetables" in list_names(driver)


def test_count_boards(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    count = (By.ID, "boards_count")
    WebDriverWait(driver, 2).until(EC.text_to_be_present_in_element(count, "You have 2 boards"))
    assert driver.find_element(*count).text == "You have 2 boards"


def test_rename_board(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    with page_change(driver):
        driver.find_element(By.LINK_TEXT, "Work").click()
    driver.find_element(By.ID, "new_board_name").send_keys("Office")
    with page_change(driver):
        driver.find_element(By.ID, "rename_board_button").click()
    assert driver.find_element(By.ID, "board_name_title").text == "Office"


def test_delete_board(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    with page_change(driver):
        driver.find_element(By.LINK_TEXT, "Office").click()
    with page_change(driver):
        driver.find_element(By.ID, "delete_board_button").click()
    assert driver.find_element(By.TAG_NAME, "h2").text == "My boards"
    assert not driver.find_elements(By.LINK_TEXT, "Office")


def test_logout_user(driver):
    boards_page = LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    boards_page.sign_out()
    assert driver.find_element(By.ID, "sign_in_button").is_displayed()


def test_view_boards(driver):
    LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD)
    headings = [h2.text for h2 in driver.find_elements(By.TAG_NAME, "h2")]
    assert "My boards" in headings
    assert driver.find_element(By.LINK_TEXT, "Groceries").is_displayed()


def test_add_duplicate_user(driver):
    sign_up_page = LoginPage(driver).go_to_sign_up()
    sign_up_page.sign_up("Jane", "Doe", "jane@boards.test", "janepass1")
    assert driver.find_element(By.ID, "error").text == "Email has already been taken"
