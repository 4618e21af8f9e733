"""Shared fixtures: one headless Chromium per pytest session, a clean start per test."""

import os
import shutil
import tempfile

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

import jscoverage

CHROMIUM = os.environ.get("EXAMPLE_BROWSER") or "/usr/bin/chromium"  # ci/test: examples/headless-shell
CHROMEDRIVER = "/usr/bin/chromedriver"  # given explicitly, so Selenium Manager never runs
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
]


def app_url():
    """$BOARDS_URL, else port $BOARDS_PORT_BASE + worker ($APP_WORKER, else $UNTANGLE_WORKER)."""
    url = os.environ.get("BOARDS_URL")
    if url:
        return url.rstrip("/")
    return f"http://127.0.0.1:{int(os.environ.get('BOARDS_PORT_BASE') or 18080) + int(os.environ.get('APP_WORKER') or os.environ.get('UNTANGLE_WORKER') or 0)}"


@pytest.fixture(scope="session")
def base_url():
    return app_url()


@pytest.fixture(scope="session")
def browser_and_recorder(base_url):
    """The browser, wrapped to record JavaScript coverage when $UNTANGLE_COVERAGE is set."""
    profile = tempfile.mkdtemp(prefix="boards-chromium-")
    options = Options()
    for flag in CHROMIUM_FLAGS + jscoverage.browser_flags():
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.binary_location = CHROMIUM
    grid = os.environ.get("SELENIUM_REMOTE_URL")
    if grid:  # a Selenium Grid: the session is a node's (examples/boards/grid/run)
        browser = webdriver.Remote(command_executor=grid, options=options)
    else:
        browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.implicitly_wait(0)  # a missing element fails the test at once
    wrapped, recorder = jscoverage.wrap(browser, base_url)
    yield wrapped, recorder
    if recorder:
        recorder.save(os.environ[jscoverage.ENV])
    browser.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
def driver(browser_and_recorder):
    return browser_and_recorder[0]


@pytest.fixture
def js_coverage(request, browser_and_recorder):
    """Attributes the coverage from here to the end of the test to the test (if recorded)."""
    recorder = browser_and_recorder[1]
    if recorder:
        recorder.begin()
    yield
    if recorder:
        recorder.end(request.node.nodeid)


@pytest.fixture(autouse=True)
def start_signed_out(js_coverage, driver, base_url):
    """Every test starts with no cookies on the application's root page."""
    driver.get(base_url + "/")
    driver.delete_all_cookies()
    driver.get(base_url + "/")
