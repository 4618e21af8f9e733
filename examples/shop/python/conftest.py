"""Shared fixtures: one headless Chromium per pytest session, a clean start per test.

Like many real suites, this one sets an implicit wait: every lookup of an element
that is not there costs IMPLICIT_WAIT_S seconds before the test fails.
"""

import os
import shutil
import tempfile

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

CHROMIUM = os.environ.get("EXAMPLE_BROWSER") or "/usr/bin/chromium"  # ci/test: examples/headless-shell
CHROMEDRIVER = "/usr/bin/chromedriver"  # given explicitly, so Selenium Manager never runs
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
]
IMPLICIT_WAIT_S = 3


def app_url():
    """$SHOP_URL, else the application of worker $APP_WORKER (port 18180 + worker)."""
    url = os.environ.get("SHOP_URL")
    if url:
        return url.rstrip("/")
    return f"http://127.0.0.1:{18180 + int(os.environ.get('APP_WORKER', '0'))}"


@pytest.fixture(scope="session")
def base_url():
    return app_url()


@pytest.fixture(scope="session")
def driver():
    profile = tempfile.mkdtemp(prefix="shop-chromium-")
    options = Options()
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.binary_location = CHROMIUM
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.implicitly_wait(IMPLICIT_WAIT_S)
    yield browser
    browser.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(autouse=True)
def start_signed_out(driver, base_url):
    """Every test starts with no cookies on the catalogue page."""
    driver.get(base_url + "/products")
    driver.delete_all_cookies()
    driver.get(base_url + "/products")
