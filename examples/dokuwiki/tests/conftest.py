import os, shutil, tempfile
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


@pytest.fixture(scope="session")
def base_url():
    base = int(os.environ.get('WIKI_PORT_BASE', '18280'))
    return f"http://127.0.0.1:{base + int(os.environ.get('APP_WORKER', '0'))}/doku.php"


@pytest.fixture(scope="session")
def browser():
    profile = tempfile.mkdtemp(prefix="wiki-chromium-")
    o = Options()
    for f in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run",
              "--disable-dev-shm-usage", f"--user-data-dir={profile}"]:
        o.add_argument(f)
    o.binary_location = "/usr/bin/chromium"
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.implicitly_wait(3)  # like most real suites: a missing element costs 3 s
    yield d
    d.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def driver(browser, base_url):
    browser.delete_all_cookies()
    browser.get(base_url)
    return browser
