"""Page objects of the boards application."""

from contextlib import contextmanager

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait


def _gone(element):
    """A wait condition: the element no longer belongs to the page.

    Chromium reports an element of a page being replaced either as stale or, while the
    new document loads, as "Node with given id does not belong to the document"; both
    mean the old page is gone (selenium's staleness_of only knows the first).
    """
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
    """Wait after the block until the browser has left the current page.

    chromedriver's click() may return before a form submission or a link starts to
    load the next page; the next find_element would then still see the old one.
    """
    old_page = driver.find_element(By.TAG_NAME, "html")
    yield
    wait = WebDriverWait(driver, timeout, poll_frequency=0.05)
    wait.until(_gone(old_page))
    # elements of a page that is still loading can vanish under the next command
    # ("Node with given id does not belong to the document")
    wait.until(lambda d: d.execute_script("return document.readyState") == "complete")


class LoginPage:
    EMAIL = (By.ID, "user_email")
    PASSWORD = (By.ID, "user_password")
    SIGN_IN_BUTTON = (By.ID, "sign_in_button")
    SIGN_UP_LINK = (By.ID, "sign_up_link")

    def __init__(self, driver):
        self.driver = driver

    def login(self, email, password):
        self.driver.find_element(*self.EMAIL).send_keys(email)
        self.driver.find_element(*self.PASSWORD).send_keys(password)
        with page_change(self.driver):
            self.driver.find_element(*self.SIGN_IN_BUTTON).click()
        return BoardsPage(self.driver)

    def go_to_sign_up(self):
        with page_change(self.driver):
            self.driver.find_element(*self.SIGN_UP_LINK).click()
        return SignUpPage(self.driver)


class SignUpPage:
    FIRST_NAME = (By.ID, "user_first_name")
    LAST_NAME = (By.ID, "user_last_name")
    EMAIL = (By.ID, "user_email")
    PASSWORD = (By.ID, "user_password")
    PASSWORD_CONFIRMATION = (By.ID, "user_password_confirmation")
    SIGN_UP_BUTTON = (By.ID, "sign_up_button")

    def __init__(self, driver):
        self.driver = driver

    def sign_up(self, first, last, email, password):
        self.driver.find_element(*self.FIRST_NAME).send_keys(first)
        self.driver.find_element(*self.LAST_NAME).send_keys(last)
        self.driver.find_element(*self.EMAIL).send_keys(email)
        self.driver.find_element(*self.PASSWORD).send_keys(password)
        self.driver.find_element(*self.PASSWORD_CONFIRMATION).send_keys(password)
        with page_change(self.driver):
            self.driver.find_element(*self.SIGN_UP_BUTTON).click()
        return BoardsPage(self.driver)


class BoardsPage:
    ADD_NEW_BOARD = (By.ID, "add_new_board")
    BOARD_NAME = (By.ID, "board_name")
    CREATE_BOARD_BUTTON = (By.ID, "create_board_button")
    CURRENT_USER = (By.ID, "current_user")
    SIGN_OUT_LINK = (By.ID, "sign_out_link")

    def __init__(self, driver):
        self.driver = driver

    def add_board(self, name):
        self.driver.find_element(*self.ADD_NEW_BOARD).click()
        self.driver.find_element(*self.BOARD_NAME).send_keys(name)
        with page_change(self.driver):
            self.driver.find_element(*self.CREATE_BOARD_BUTTON).click()

    def open_board(self, name):
        with page_change(self.driver):
            self.driver.find_element(By.LINK_TEXT, name).click()

    def current_user(self):
        return self.driver.find_element(*self.CURRENT_USER).text

    def sign_out(self):
        with page_change(self.driver):
            self.driver.find_element(*self.SIGN_OUT_LINK).click()
