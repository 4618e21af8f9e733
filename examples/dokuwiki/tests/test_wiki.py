from selenium.webdriver.common.by import By

ALICE, ALICE_PW = "alice", "wonderland-42"
PAGE = "project:plan"


def login(driver, base_url, user, password):
    driver.get(base_url + "?do=login")
    driver.find_element(By.NAME, "u").send_keys(user)
    driver.find_element(By.NAME, "p").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "#dw__login button[type=submit]").click()
    assert driver.find_elements(By.CSS_SELECTOR, "a.logout, li.action.logout a")


def save_page(driver, base_url, page, text):
    driver.get(f"{base_url}?id={page}&do=edit")
    area = driver.find_element(By.ID, "wiki__text")
    area.clear()
    area.send_keys(text)
    driver.find_element(By.CSS_SELECTOR, "button[name='do[save]']").click()


def test_admin_can_log_in(driver, base_url):
    login(driver, base_url, "admin", "admin-secret")


def test_register_alice(driver, base_url):
    driver.get(base_url + "?do=register")
    driver.find_element(By.NAME, "login").send_keys(ALICE)
    driver.find_element(By.NAME, "pass").send_keys(ALICE_PW)
    driver.find_element(By.NAME, "passchk").send_keys(ALICE_PW)
    driver.find_element(By.NAME, "fullname").send_keys("Alice Liddell")
    driver.find_element(By.NAME, "email").send_keys("alice@example.org")
    driver.find_element(By.CSS_SELECTOR, "#dw__register button[type=submit]").click()
    assert "has been created" in driver.find_element(By.CSS_SELECTOR, "div.success").text


def test_alice_logs_in(driver, base_url):
    login(driver, base_url, ALICE, ALICE_PW)


def test_alice_creates_plan_page(driver, base_url):
    login(driver, base_url, ALICE, ALICE_PW)
    save_page(driver, base_url, PAGE, "====== Launch plan ======\nShip the first release.\n")
    assert "Launch plan" in driver.find_element(By.CSS_SELECTOR, "div.page h1").text


def test_anonymous_reads_plan(driver, base_url):
    driver.get(f"{base_url}?id={PAGE}")
    assert "Ship the first release" in driver.find_element(By.CSS_SELECTOR, "div.page").text


def test_alice_edits_plan(driver, base_url):
    login(driver, base_url, ALICE, ALICE_PW)
    save_page(driver, base_url, PAGE,
              "====== Launch plan ======\nShip the first release.\n\nThen ship the second.\n")
    assert "ship the second" in driver.find_element(By.CSS_SELECTOR, "div.page").text


def test_plan_has_two_revisions(driver, base_url):
    driver.get(f"{base_url}?id={PAGE}&do=revisions")
    items = driver.find_elements(By.CSS_SELECTOR, "#page__revisions li")
    assert len(items) >= 2


def test_admin_sees_alice_in_user_manager(driver, base_url):
    login(driver, base_url, "admin", "admin-secret")
    driver.get(base_url + "?do=admin&page=usermanager")
    assert ALICE in driver.find_element(By.ID, "user__manager").text


def test_alice_changes_her_full_name(driver, base_url):
    login(driver, base_url, ALICE, ALICE_PW)
    driver.get(base_url + "?do=profile")
    name = driver.find_element(By.NAME, "fullname")
    name.clear()
    name.send_keys("Alice P. Liddell")
    driver.find_element(By.NAME, "oldpass").send_keys(ALICE_PW)
    driver.find_element(By.CSS_SELECTOR, "#dw__register button[type=submit]").click()
    assert "updated" in driver.find_element(By.CSS_SELECTOR, "div.success").text


def test_recent_changes_list_plan(driver, base_url):
    driver.get(base_url + "?do=recent")
    assert PAGE in driver.find_element(By.ID, "dw__recent").text


def test_admin_deletes_plan(driver, base_url):
    login(driver, base_url, "admin", "admin-secret")
    save_page(driver, base_url, PAGE, "")
    driver.get(f"{base_url}?id={PAGE}")
    assert "not exist" in driver.find_element(By.CSS_SELECTOR, "div.page").text
