#!/usr/bin/python3
"""gen_suite.py: writes a large, realistic Selenium suite for the parse benchmark.

The suite is deterministic for a given (language, tests, seed): a fixed pseudo-random
generator picks the locators, values and statement mix. Each test has about 30
statements in the shapes real suites use: page objects, constants, locals,
concatenation or interpolation, locators, typing, clicking and assertions.

    gen_suite.py --lang java|python|javascript --tests N --out DIR [--seed S]
                 [--values scaled|fixed]

Prints one line to stdout: "<tests> <files> <bytes>" (the tests generated, the source
files written and their total size).
"""

import argparse
import os
import random
import sys

TESTS_PER_FILE = 20
STATEMENTS_PER_TEST = 30

# How many distinct values the random data are drawn from. "scaled" (the default) grows
# them with the suite, so that a value is shared by about as many tests at any size and a
# module's constants are its own, as in a real suite where data belong to a feature;
# "fixed" keeps the spaces of the first version (1,000 users, 4 constants per module
# drawn from 60 values shared by every module), whose collisions connect a test to
# hundreds of others and grow quadratically with the suite.
SPACE = {"user": 1000, "password": 10000, "text": 1000, "scaled": False}


def set_space(mode, tests):
    if mode == "scaled":
        SPACE.update(user=max(1000, tests // 10), password=max(10000, tests),
                     text=max(1000, tests // 10), scaled=True)


def const_value(rng, fi, j):
    """The value of constant j of module fi."""
    if SPACE["scaled"]:
        return "%s %d" % (rng.choice(WORDS).title(), fi * 4 + j)
    return "%s %d" % (rng.choice(WORDS).title(), j)

WORDS = ["board", "list", "card", "user", "member", "label", "comment", "title",
         "search", "filter", "profile", "settings", "invite", "archive", "share"]
VERBS = ["add", "rename", "delete", "view", "move", "share", "archive", "restore",
         "invite", "search", "filter", "sort", "edit", "open", "close"]


class Writer:
    """Collects the files of the suite and their sizes."""

    def __init__(self, root):
        self.root = root
        self.files = 0
        self.bytes = 0

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = text.encode("utf-8")
        with open(path, "wb") as f:
            f.write(data)
        self.files += 1
        self.bytes += len(data)


def ident(rng):
    return rng.choice(WORDS) + "_" + rng.choice(WORDS) + str(rng.randrange(100))


def camel(s):
    parts = s.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def test_names(rng, count, start):
    """Distinct, readable test names: add_board_17, rename_list_3, ..."""
    names = []
    for i in range(count):
        names.append("%s_%s_%d" % (rng.choice(VERBS), rng.choice(WORDS), start + i))
    return names


# ---------------------------------------------------------------- Java (JUnit 4)

JAVA_PKG = "com.example.bench"
JAVA_DIR = "src/test/java/com/example/bench"

JAVA_BASE = """package com.example.bench;

import org.junit.After;
import org.junit.Before;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;

/** Common setup: a fresh browser on the application's root page for every test. */
public abstract class BaseTest {

    public static final String BASE_URL = "http://127.0.0.1:18080";
    public static final String ADMIN_EMAIL = "admin@boards.test";
    public static final String ADMIN_PASSWORD = "12345678";

    protected WebDriver driver;

    @Before
    public void setUp() {
        driver = new ChromeDriver();
        driver.manage().deleteAllCookies();
        driver.get(BASE_URL + "/");
    }

    @After
    public void tearDown() {
        driver.quit();
    }
}
"""

JAVA_PAGE = """package com.example.bench.pages;

import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/** The sign-in page. */
public class LoginPage {

    private final WebDriver driver;

    private final By emailField = By.id("user_email");
    private final By passwordField = By.id("user_password");
    private final By signInButton = By.cssSelector("form#sign_in button[type=submit]");

    public LoginPage(WebDriver driver) {
        this.driver = driver;
    }

    public void login(String email, String password) {
        driver.findElement(emailField).clear();
        driver.findElement(emailField).sendKeys(email);
        driver.findElement(passwordField).sendKeys(password);
        driver.findElement(signInButton).click();
    }

    public void logout() {
        driver.findElement(By.id("sign_out_link")).click();
    }
}
"""


def java_statements(rng, n, consts):
    """About n statements of a test body (each a line)."""
    out = []
    k = rng.randrange(SPACE["user"])
    out.append('String email = "user" + %d + "@x.test";' % k)
    out.append('String password = "pw-" + %d;' % rng.randrange(SPACE["password"]))
    out.append("LoginPage loginPage = new LoginPage(driver);")
    out.append("loginPage.login(email, password);")
    while len(out) < n - 2:
        r = rng.randrange(10)
        name = ident(rng)
        if r == 0:
            out.append('driver.get(BASE_URL + "/%s/" + %d);' % (rng.choice(WORDS), rng.randrange(500)))
        elif r == 1:
            out.append('driver.findElement(By.id("%s")).sendKeys("%s " + email);' % (name, rng.choice(WORDS)))
        elif r == 2:
            out.append('driver.findElement(By.xpath("//div[@class=\'%s\']//a[text()=\'%s\']")).click();'
                       % (name, rng.choice(WORDS)))
        elif r == 3:
            out.append('driver.findElement(By.cssSelector("#%s > .%s")).click();' % (name, rng.choice(WORDS)))
        elif r == 4:
            out.append('assertEquals("%s", driver.findElement(By.id("%s")).getText());'
                       % (rng.choice(WORDS).title(), name))
        elif r == 5:
            v = camel(name)
            out.append('By %s = By.id("%s");' % (v, name))
            out.append("driver.findElement(%s).click();" % v)
        elif r == 6:
            out.append('driver.findElement(By.id("%s")).sendKeys(%s);' % (name, rng.choice(consts)))
        elif r == 7:
            v = camel(name) + "Text"
            out.append('String %s = "%s-" + %d;' % (v, rng.choice(WORDS), rng.randrange(SPACE["text"])))
            out.append('driver.findElement(By.name("%s")).sendKeys(%s);' % (name, v))
        elif r == 8:
            out.append('assertTrue(driver.findElement(By.cssSelector(".%s")).isDisplayed());' % name)
        else:
            out.append('driver.findElement(By.linkText("%s")).click();' % rng.choice(WORDS).title())
    out.append('assertEquals(email, driver.findElement(By.id("current_user")).getText());')
    out.append("loginPage.logout();")
    return out


def gen_java(rng, tests, w):
    w.write(JAVA_DIR + "/BaseTest.java", JAVA_BASE)
    w.write(JAVA_DIR + "/pages/LoginPage.java", JAVA_PAGE)
    nfiles = (tests + TESTS_PER_FILE - 1) // TESTS_PER_FILE
    done = 0
    for fi in range(nfiles):
        count = min(TESTS_PER_FILE, tests - done)
        cls = "%s%sTest%04d" % (rng.choice(VERBS).title(), rng.choice(WORDS).title(), fi)
        consts = ["TITLE_%d" % j for j in range(4)]
        lines = [
            "package %s;" % JAVA_PKG,
            "",
            "import static org.junit.Assert.assertEquals;",
            "import static org.junit.Assert.assertTrue;",
            "",
            "import com.example.bench.pages.LoginPage;",
            "import org.junit.Test;",
            "import org.openqa.selenium.By;",
            "",
            "public class %s extends BaseTest {" % cls,
            "",
        ]
        for j, c in enumerate(consts):
            lines.append('    static final String %s = "%s";' % (c, const_value(rng, fi, j)))
        lines.append("    static final String ADMIN_NAME = ADMIN_EMAIL + \" (admin)\";")
        consts.append("ADMIN_NAME")
        for name in test_names(rng, count, done):
            lines.append("")
            lines.append("    @Test")
            lines.append("    public void %s() {" % camel(name))
            for s in java_statements(rng, STATEMENTS_PER_TEST, consts):
                lines.append("        " + s)
            lines.append("    }")
        lines.append("}")
        lines.append("")
        w.write("%s/%s.java" % (JAVA_DIR, cls), "\n".join(lines))
        done += count
    return done


# ---------------------------------------------------------------- Python (pytest)

PY_CONFTEST = '''"""Shared fixtures: one browser per test, signed out on the root page."""

import pytest
from selenium import webdriver

BASE_URL = "http://127.0.0.1:18080"


@pytest.fixture
def driver():
    browser = webdriver.Chrome()
    browser.get(BASE_URL + "/")
    browser.delete_all_cookies()
    yield browser
    browser.quit()
'''

PY_PAGES = '''"""Page objects of the application."""

from selenium.webdriver.common.by import By


class LoginPage:
    EMAIL = (By.ID, "user_email")
    PASSWORD = (By.ID, "user_password")
    SIGN_IN_BUTTON = (By.CSS_SELECTOR, "form#sign_in button[type=submit]")

    def __init__(self, driver):
        self.driver = driver

    def login(self, email, password):
        self.driver.find_element(*self.EMAIL).clear()
        self.driver.find_element(*self.EMAIL).send_keys(email)
        self.driver.find_element(*self.PASSWORD).send_keys(password)
        self.driver.find_element(*self.SIGN_IN_BUTTON).click()

    def logout(self):
        self.driver.find_element(By.ID, "sign_out_link").click()
'''


def py_statements(rng, n, consts):
    out = []
    k = rng.randrange(SPACE["user"])
    out.append('email = f"user{%d}@x.test"' % k)
    out.append('password = "pw-" + str(%d)' % rng.randrange(SPACE["password"]))
    out.append("login_page = LoginPage(driver)")
    out.append("login_page.login(email, password)")
    while len(out) < n - 2:
        r = rng.randrange(10)
        name = ident(rng)
        if r == 0:
            out.append('driver.get(BASE_URL + "/%s/%d")' % (rng.choice(WORDS), rng.randrange(500)))
        elif r == 1:
            out.append('driver.find_element(By.ID, "%s").send_keys(f"%s {email}")' % (name, rng.choice(WORDS)))
        elif r == 2:
            out.append('driver.find_element(By.XPATH, "//div[@class=\'%s\']//a[text()=\'%s\']").click()'
                       % (name, rng.choice(WORDS)))
        elif r == 3:
            out.append('driver.find_element(By.CSS_SELECTOR, "#%s > .%s").click()' % (name, rng.choice(WORDS)))
        elif r == 4:
            out.append('assert driver.find_element(By.ID, "%s").text == "%s"' % (name, rng.choice(WORDS).title()))
        elif r == 5:
            out.append('%s = (By.ID, "%s")' % (name, name))
            out.append("driver.find_element(*%s).click()" % name)
        elif r == 6:
            out.append('driver.find_element(By.ID, "%s").send_keys(%s)' % (name, rng.choice(consts)))
        elif r == 7:
            v = name + "_text"
            out.append('%s = f"%s-{%d}"' % (v, rng.choice(WORDS), rng.randrange(SPACE["text"])))
            out.append('driver.find_element(By.NAME, "%s").send_keys(%s)' % (name, v))
        elif r == 8:
            out.append('assert driver.find_element(By.CSS_SELECTOR, ".%s").is_displayed()' % name)
        else:
            out.append('driver.find_element(By.LINK_TEXT, "%s").click()' % rng.choice(WORDS).title())
    out.append('assert driver.find_element(By.ID, "current_user").text == email')
    out.append("login_page.logout()")
    return out


def gen_python(rng, tests, w):
    w.write("conftest.py", PY_CONFTEST)
    w.write("pages.py", PY_PAGES)
    nfiles = (tests + TESTS_PER_FILE - 1) // TESTS_PER_FILE
    done = 0
    for fi in range(nfiles):
        count = min(TESTS_PER_FILE, tests - done)
        consts = ["TITLE_%d" % j for j in range(4)]
        lines = [
            '"""Generated end-to-end tests, module %d."""' % fi,
            "",
            "from selenium.webdriver.common.by import By",
            "",
            "from pages import LoginPage",
            "",
            'BASE_URL = "http://127.0.0.1:18080"',
            'ADMIN_EMAIL = "admin@boards.test"',
        ]
        for j, c in enumerate(consts):
            lines.append('%s = "%s"' % (c, const_value(rng, fi, j)))
        lines.append('ADMIN_NAME = ADMIN_EMAIL + " (admin)"')
        consts.append("ADMIN_NAME")
        for name in test_names(rng, count, done):
            lines.append("")
            lines.append("")
            lines.append("def test_%s(driver):" % name)
            for s in py_statements(rng, STATEMENTS_PER_TEST, consts):
                lines.append("    " + s)
        lines.append("")
        w.write("tests/test_%s_%04d.py" % (rng.choice(WORDS), fi), "\n".join(lines))
        done += count
    return done


# ---------------------------------------------------------------- JavaScript (mocha)

JS_PAGES = """'use strict';

const { By } = require('selenium-webdriver');

class LoginPage {
  constructor(driver) {
    this.driver = driver;
    this.email = By.id('user_email');
    this.password = By.id('user_password');
  }

  async login(email, password) {
    await this.driver.findElement(this.email).sendKeys(email);
    await this.driver.findElement(this.password).sendKeys(password);
    await this.driver.findElement(By.css('form#sign_in button[type=submit]')).click();
  }

  async logout() {
    await this.driver.findElement(By.id('sign_out_link')).click();
  }
}

module.exports = { LoginPage };
"""


def js_statements(rng, n, consts):
    out = []
    k = rng.randrange(SPACE["user"])
    out.append("const email = `user${%d}@x.test`;" % k)
    out.append("const password = 'pw-' + %d;" % rng.randrange(SPACE["password"]))
    out.append("const loginPage = new LoginPage(driver);")
    out.append("await loginPage.login(email, password);")
    while len(out) < n - 2:
        r = rng.randrange(10)
        name = ident(rng)
        if r == 0:
            out.append("await driver.get(BASE_URL + '/%s/' + %d);" % (rng.choice(WORDS), rng.randrange(500)))
        elif r == 1:
            out.append("await driver.findElement(By.id('%s')).sendKeys(`%s ${email}`);" % (name, rng.choice(WORDS)))
        elif r == 2:
            out.append("await driver.findElement(By.xpath(\"//div[@class='%s']//a[text()='%s']\")).click();"
                       % (name, rng.choice(WORDS)))
        elif r == 3:
            out.append("await driver.findElement(By.css('#%s > .%s')).click();" % (name, rng.choice(WORDS)))
        elif r == 4:
            out.append("assert.strictEqual(await driver.findElement(By.id('%s')).getText(), '%s');"
                       % (name, rng.choice(WORDS).title()))
        elif r == 5:
            v = camel(name)
            out.append("const %s = By.id('%s');" % (v, name))
            out.append("await driver.findElement(%s).click();" % v)
        elif r == 6:
            out.append("await driver.findElement(By.id('%s')).sendKeys(%s);" % (name, rng.choice(consts)))
        elif r == 7:
            v = camel(name) + "Text"
            out.append("const %s = `%s-${%d}`;" % (v, rng.choice(WORDS), rng.randrange(SPACE["text"])))
            out.append("await driver.findElement(By.name('%s')).sendKeys(%s);" % (name, v))
        elif r == 8:
            out.append("assert.ok(await driver.findElement(By.css('.%s')).isDisplayed());" % name)
        else:
            out.append("await driver.findElement(By.linkText('%s')).click();" % rng.choice(WORDS).title())
    out.append("assert.strictEqual(await driver.findElement(By.id('current_user')).getText(), email);")
    out.append("await loginPage.logout();")
    return out


def gen_javascript(rng, tests, w):
    w.write("test/pages.js", JS_PAGES)
    nfiles = (tests + TESTS_PER_FILE - 1) // TESTS_PER_FILE
    done = 0
    for fi in range(nfiles):
        count = min(TESTS_PER_FILE, tests - done)
        consts = ["TITLE_%d" % j for j in range(4)]
        lines = [
            "'use strict';",
            "",
            "const assert = require('node:assert/strict');",
            "const { Builder, By } = require('selenium-webdriver');",
            "const { LoginPage } = require('./pages');",
            "",
            "const BASE_URL = 'http://127.0.0.1:18080';",
            "const ADMIN_EMAIL = 'admin@boards.test';",
        ]
        for j, c in enumerate(consts):
            lines.append("const %s = '%s';" % (c, const_value(rng, fi, j)))
        lines.append("const ADMIN_NAME = ADMIN_EMAIL + ' (admin)';")
        consts.append("ADMIN_NAME")
        lines += [
            "",
            "describe('%s %d', function () {" % (rng.choice(WORDS), fi),
            "  let driver;",
            "",
            "  beforeEach(async function () {",
            "    driver = await new Builder().forBrowser('chrome').build();",
            "    await driver.get(BASE_URL + '/');",
            "  });",
            "",
            "  afterEach(async function () {",
            "    await driver.quit();",
            "  });",
        ]
        for name in test_names(rng, count, done):
            lines.append("")
            lines.append("  it('%s', async function () {" % name.replace("_", " "))
            for s in js_statements(rng, STATEMENTS_PER_TEST, consts):
                lines.append("    " + s)
            lines.append("  });")
        lines.append("});")
        lines.append("")
        w.write("test/%s_%04d.spec.js" % (rng.choice(WORDS), fi), "\n".join(lines))
        done += count
    return done


GENERATORS = {"java": gen_java, "python": gen_python, "javascript": gen_javascript}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lang", required=True, choices=sorted(GENERATORS))
    ap.add_argument("--tests", required=True, type=int)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--values", choices=["scaled", "fixed"], default="scaled",
                    help="value spaces: grown with the suite (default) or fixed")
    args = ap.parse_args()
    if args.tests < 1:
        ap.error("--tests must be at least 1")
    if os.path.exists(args.out) and os.listdir(args.out):
        ap.error("'%s' exists and is not empty" % args.out)
    os.makedirs(args.out, exist_ok=True)
    set_space(args.values, args.tests)
    rng = random.Random("%s/%d" % (args.lang, args.seed))
    w = Writer(args.out)
    n = GENERATORS[args.lang](rng, args.tests, w)
    print("%d %d %d" % (n, w.files, w.bytes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
