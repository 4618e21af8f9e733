#!/usr/bin/python3
"""shapes_gen.py: suites in the shapes of the public suites issue 30 measured.

    shapes_gen.py testng|mocha --out DIR [--tests N] [--files F] [--seed S]

testng (default 1,289 tests in 378 files): a TestNG/Selenium Maven project. Page objects
under src/main/java/pages (a BasePage with the driver, waits and typing helpers; 40 pages
of 12 @FindBy fields, 6 By fields and 24 methods, each returning a page, some calling the
base class's helpers or other pages), a BaseTest with @BeforeClass/@BeforeMethod setup (a
driver, the login page, a login through a getter) and @AfterMethod, and test classes
extending it: @Test methods that call pages through fields, locals, getters and chains
(`loginPage.open().loginAs(..).goToSettings().save()`), @DataProvider-driven tests,
dependsOnMethods and priorities; testng.xml names every class.

mocha (default 795 tests in 60 files): a mocha/selenium-webdriver project. Page modules
under test/pages (classes with a driver and methods doing several driver calls), a
helpers module, and specs whose describe blocks have a long before (a driver built with
Builder) and beforeEach (a shared sign-in of a dozen driver calls, cookies, waits) and
nested describes with their own beforeEach: the hooks are nearly all of each test's
actions, as in the suite the issue measured.

Prints one line of JSON: {"tests": N, "files": F, "bytes": B, "lang": L}."""
import argparse
import json
import os
import random

WORDS = ("account address alert archive article basket billing board booking calendar "
         "campaign cart category channel checkout comment company contact coupon customer "
         "dashboard delivery document draft event export feed filter folder group invoice "
         "item label language ledger message note order page payment photo playlist policy "
         "post price product profile project queue rating receipt report review role "
         "schedule search setting shipment store subscription tag task team template "
         "ticket topic user vendor voucher warehouse widget").split()
VERBS = "open create edit delete search filter sort select save submit archive share".split()


def cap(w):
    return w[:1].upper() + w[1:]


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)
    return len(text.encode())


# ---------------------------------------------------------------- TestNG / Java

JAVA_BASE_PAGE = """package pages;

import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.PageFactory;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

public class BasePage {
    protected WebDriver driver;
    protected WebDriverWait wait;
    protected final By toast = By.cssSelector(".toast-message");
    protected final By spinner = By.id("loading-spinner");

    public BasePage(WebDriver driver) {
        this.driver = driver;
        this.wait = new WebDriverWait(driver, Duration.ofSeconds(10));
        PageFactory.initElements(driver, this);
    }

    public WebDriver getDriver() {
        return driver;
    }

    protected WebElement find(By locator) {
        waitVisible(locator);
        return driver.findElement(locator);
    }

    protected void waitVisible(By locator) {
        wait.until(ExpectedConditions.visibilityOfElementLocated(locator));
    }

    protected void click(By locator) {
        wait.until(ExpectedConditions.elementToBeClickable(locator));
        find(locator).click();
    }

    protected void type(By locator, String text) {
        WebElement el = find(locator);
        el.clear();
        el.sendKeys(text);
    }

    protected String textOf(By locator) {
        return driver.findElement(locator).getText();
    }

    public boolean toastSays(String text) {
        return textOf(toast).contains(text);
    }

    public void waitForSpinner() {
        wait.until(ExpectedConditions.invisibilityOfElementLocated(spinner));
    }

    public void visit(String path) {
        driver.get("http://app.test" + path);
    }
}
"""

JAVA_LOGIN_PAGE = """package pages;

import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.FindBy;

public class LoginPage extends BasePage {
    @FindBy(id = "username") WebElement username;
    @FindBy(id = "password") WebElement password;
    private final By submit = By.cssSelector("button[type=submit]");

    public LoginPage(WebDriver driver) {
        super(driver);
    }

    public LoginPage open() {
        visit("/login");
        return this;
    }

    public HomePage loginAs(String user, String pass) {
        username.sendKeys(user);
        password.sendKeys(pass);
        click(submit);
        waitForSpinner();
        return new HomePage(driver);
    }
}
"""


def java_home_page(pages):
    lines = ["package pages;", "", "import org.openqa.selenium.By;",
             "import org.openqa.selenium.WebDriver;", "",
             "public class HomePage extends BasePage {",
             "    private final By menu = By.id(\"main-menu\");", "",
             "    public HomePage(WebDriver driver) {", "        super(driver);", "    }", ""]
    for p in pages:
        lines += [f"    public {p}Page goTo{p}() {{", "        click(menu);",
                  f"        click(By.linkText(\"{p}\"));",
                  f"        return new {p}Page(driver);", "    }", ""]
    return "\n".join(lines).rstrip() + "\n}\n"


def java_page(rng, name, pages):
    lines = ["package pages;", "", "import java.util.List;", "import org.openqa.selenium.By;",
             "import org.openqa.selenium.WebDriver;", "import org.openqa.selenium.WebElement;",
             "import org.openqa.selenium.support.FindBy;", "",
             f"public class {name}Page extends BasePage {{"]
    low = name.lower()
    for i in range(12):
        lines.append(f"    @FindBy(id = \"{low}-field-{i}\") WebElement field{i};")
    for i in range(6):
        lines.append(f"    private final By button{i} = By.cssSelector(\"#{low} .action-{i}\");")
    lines += ["    private final By rows = By.cssSelector(\"table tbody tr\");", "",
              f"    public {name}Page(WebDriver driver) {{", "        super(driver);", "    }", "",
              f"    public {name}Page open() {{", f"        visit(\"/{low}s\");",
              "        waitForSpinner();", "        return this;", "    }", ""]
    for i in range(24):
        verb = VERBS[i % len(VERBS)]
        f1, b = i % 12, i % 6
        lines.append(f"    public {name}Page {verb}{i}(String value) {{")
        if i < 12:      # a field: the base class's helpers
            lines += [f"        waitVisible(By.id(\"{low}-field-{f1}\"));",
                      f"        field{f1}.clear();", f"        field{f1}.sendKeys(value);",
                      f"        type(By.name(\"{low}_{i}\"), value + \" {i}\");"]
        elif i < 20:    # a form: four fields
            for j in range(4):
                k = (i * 3 + j) % 12
                lines.append(f"        {VERBS[k % len(VERBS)]}{k}(value);")
            lines += [f"        click(button{b});", "        waitForSpinner();"]
        else:           # a whole flow: open, two forms, save, check
            k1, k2 = 12 + i % 8, 12 + (i + 3) % 8
            lines += ["        open();", f"        {VERBS[k1 % len(VERBS)]}{k1}(value);",
                      f"        {VERBS[k2 % len(VERBS)]}{k2}(value + \" again\");",
                      "        List<WebElement> all = driver.findElements(rows);",
                      "        for (WebElement row : all) {",
                      "            if (row.getText().contains(value)) {",
                      f"                row.findElement(By.cssSelector(\".{verb}\")).click();",
                      "                break;", "            }", "        }",
                      f"        click(button{b});", "        toastSays(\"saved\");"]
        lines += ["        return this;", "    }", ""]
    other = pages[(pages.index(name) + 1) % len(pages)]
    lines += [f"    public {other}Page goTo{other}() {{", f"        click(By.linkText(\"{other}\"));",
              f"        return new {other}Page(driver);", "    }", "",
              f"    public boolean has{name}(String value) {{",
              "        return driver.findElements(rows).stream()"
              ".anyMatch(r -> r.getText().contains(value));", "    }"]
    return "\n".join(lines) + "\n}\n"


JAVA_BASE_TEST = """package tests;

import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.BeforeMethod;
import pages.HomePage;
import pages.LoginPage;
import utils.Config;

public class BaseTest {
    protected WebDriver driver;
    protected LoginPage loginPage;
    protected HomePage homePage;

    @BeforeClass
    public void createDriver() {
        driver = new ChromeDriver();
        driver.manage().window().maximize();
    }

    @BeforeMethod
    public void signIn() {
        loginPage = new LoginPage(driver);
        homePage = getLoginPage().open().loginAs(Config.USER, Config.PASSWORD);
        driver.manage().deleteCookieNamed("banner");
        getHomePage().goToAccount().save20("defaults");
        getHomePage().goToBoard().submit21("language");
    }

    protected LoginPage getLoginPage() {
        return loginPage;
    }

    protected HomePage getHomePage() {
        return homePage;
    }

    @AfterMethod
    public void signOut() {
        driver.get(Config.BASE_URL + "/logout");
    }
}
"""

JAVA_CONFIG = """package utils;

public final class Config {
    public static final String BASE_URL = "http://app.test";
    public static final String USER = "admin@app.test";
    public static final String PASSWORD = "secret";

    private Config() {
    }
}
"""


def java_test_method(rng, cls, page, k, pages, provider):
    low = page.lower()
    m = 12 + rng.randrange(12)
    verb = VERBS[m % len(VERBS)]
    style = k % 5
    name = f"{verb}{page}{k}"
    head = [f"    @Test(dataProvider = \"{low}Names\")" if provider else
            ("    @Test(priority = %d)" % (k + 1) if style == 3 else "    @Test")]
    arg = "String value" if provider else ""
    val = "value" if provider else f"\"{page} {k}\""
    body = []
    if style == 0:      # a field of the class
        body += [f"        {low}Page.open();", f"        {low}Page.{verb}{m}({val});",
                 f"        assertTrue({low}Page.has{page}({val}));"]
    elif style == 1:    # a local
        body += [f"        {page}Page p = new {page}Page(driver);", "        p.open();",
                 f"        p.{verb}{m}({val}).{VERBS[(m + 1) % 12]}{12 + (m + 1) % 12}({val});",
                 f"        Assert.assertTrue(p.toastSays(\"saved\"));"]
    elif style == 2:    # a getter and a chain from the home page
        body += [f"        getHomePage().goTo{page}().{verb}{m}({val});",
                 f"        Assert.assertTrue(getHomePage().goTo{page}().has{page}({val}));"]
    elif style == 3:    # a chain from the login page
        other = pages[(pages.index(page) + 1) % len(pages)]
        body += [f"        {low}Page = getLoginPage().open().loginAs(\"u{k}\", \"pw\").goTo{page}();",
                 f"        {low}Page.{verb}{m}({val}).goTo{other}().open();"]
    else:               # the driver directly, then a page
        body += [f"        driver.get(Config.BASE_URL + \"/{low}s/{k}\");",
                 f"        driver.findElement(By.id(\"{low}-search\")).sendKeys({val});",
                 f"        {low}Page.{verb}{m}({val});"]
    return head + [f"    public void {name}({arg}) {{"] + body + ["    }", ""], name


def java_test_class(rng, cls, page, tests, pages):
    low = page.lower()
    lines = ["package tests;", "", "import org.openqa.selenium.By;",
             "import org.testng.Assert;", "import org.testng.annotations.BeforeMethod;",
             "import static org.testng.Assert.assertTrue;",
             "import org.testng.annotations.DataProvider;", "import org.testng.annotations.Test;",
             f"import pages.{page}Page;", "import utils.Config;", "",
             f"public class {cls} extends BaseTest {{", f"    private {page}Page {low}Page;", "",
             "    @BeforeMethod", f"    public void open{page}() {{",
             f"        {low}Page = getHomePage().goTo{page}();", f"        {low}Page.open();", "    }", ""]
    provider = tests >= 4 and rng.random() < 0.3
    if provider:
        lines += [f"    @DataProvider(name = \"{low}Names\")", "    public Object[][] names() {",
                  f"        return new Object[][] {{{{\"{page} one\"}}, {{\"{page} two\"}}}};", "    }", ""]
    names = []
    for k in range(tests):
        body, name = java_test_method(rng, cls, page, len(names) + 1, pages,
                                      provider and k == 0)
        if k == tests - 1 and names and rng.random() < 0.3:
            body[0] = f"    @Test(dependsOnMethods = \"{names[0]}\")"
        lines += body
        names.append(name)
    return "\n".join(lines).rstrip() + "\n}\n"


def gen_testng(out, tests, files, seed):
    rng = random.Random(seed)
    pages = [cap(w) for w in WORDS[:40]]
    size = write(out, "src/main/java/pages/BasePage.java", JAVA_BASE_PAGE)
    size += write(out, "src/main/java/pages/LoginPage.java", JAVA_LOGIN_PAGE)
    size += write(out, "src/main/java/pages/HomePage.java", java_home_page(pages))
    size += write(out, "src/main/java/utils/Config.java", JAVA_CONFIG)
    size += write(out, "src/test/java/tests/BaseTest.java", JAVA_BASE_TEST)
    for p in pages:
        size += write(out, f"src/main/java/pages/{p}Page.java", java_page(rng, p, pages))
    nclasses = max(1, files - len(pages) - 5)
    classes = []
    for c in range(nclasses):
        n = tests // nclasses + (1 if c < tests % nclasses else 0)
        page = pages[c % len(pages)]
        cls = f"{page}Tests{c // len(pages) + 1}"
        classes.append(cls)
        size += write(out, f"src/test/java/tests/{cls}.java",
                      java_test_class(rng, cls, page, n, pages))
    xml = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<!DOCTYPE suite SYSTEM "https://testng.org/testng-1.0.dtd">',
           '<suite name="Regression">', '  <test name="All">', '    <classes>']
    xml += [f'      <class name="tests.{c}"/>' for c in classes]
    xml += ['    </classes>', '  </test>', '</suite>', '']
    write(out, "testng.xml", "\n".join(xml))
    write(out, "untangle.json", json.dumps({"suite": {"paths": ["src/test/java"],
                                                      "language": "java"}}, indent=1) + "\n")
    return {"lang": "java", "files": nclasses + len(pages) + 5, "bytes": size}


# ---------------------------------------------------------------- mocha / JavaScript

JS_HELPERS = """const { By, until } = require('selenium-webdriver');

const BASE_URL = 'http://app.test';
const USER = 'admin@app.test';
const PASSWORD = 'secret';

async function waitAndClick(driver, locator) {
  await driver.wait(until.elementLocated(locator), 10000);
  await driver.findElement(locator).click();
}

async function typeInto(driver, locator, text) {
  const el = await driver.findElement(locator);
  await el.clear();
  await el.sendKeys(text);
}

async function signIn(driver, user, password) {
  await driver.get(BASE_URL + '/login');
  await driver.manage().deleteAllCookies();
  await driver.wait(until.titleContains('Sign in'), 10000);
  await typeInto(driver, By.id('email'), user);
  await typeInto(driver, By.id('password'), password);
  await driver.findElement(By.css('input[name=remember]')).click();
  await waitAndClick(driver, By.css('button[type=submit]'));
  await driver.wait(until.elementLocated(By.id('dashboard')), 10000);
  await driver.findElement(By.css('.cookie-banner .accept')).click();
  await driver.findElement(By.css('.tour .skip')).click();
  await driver.wait(until.elementIsNotVisible(driver.findElement(By.id('spinner'))), 5000);
}

async function dismissDialogs(driver) {
  await waitAndClick(driver, By.css('.modal .close'));
  await waitAndClick(driver, By.css('.release-notes .dismiss'));
  await driver.findElement(By.id('notifications-toggle')).click();
}

module.exports = { BASE_URL, USER, PASSWORD, waitAndClick, typeInto, signIn, dismissDialogs };
"""


def js_workspace(pages):
    """test/workspace.js: what every spec's beforeEach prepares, through the page objects."""
    lines = ["const { By } = require('selenium-webdriver');",
             "const { typeInto, waitAndClick, dismissDialogs } = require('./helpers');"]
    lines += [f"const {{ {p}Page }} = require('./pages/{p.lower()}');" for p in pages]
    lines += ["", "async function prepareWorkspace(driver, owner) {",
              "  await dismissDialogs(driver);"]
    for i, p in enumerate(pages):
        lines += [f"  const {p.lower()} = new {p}Page(driver);", f"  await {p.lower()}.open();",
                  f"  await {p.lower()}.{VERBS[i % 10]}{i % 10}('{p} of ' + owner);",
                  f"  await {p.lower()}.{VERBS[(i + 3) % 10]}{(i + 3) % 10}('{p} ' + {i});"]
    lines += ["  await typeInto(driver, By.id('workspace-name'), 'Workspace of ' + owner);",
              "  await waitAndClick(driver, By.css('#workspace .save'));", "}", "",
              "module.exports = { prepareWorkspace };", ""]
    return "\n".join(lines)


def js_page(name):
    low = name.lower()
    lines = ["const { By } = require('selenium-webdriver');",
             "const { BASE_URL, waitAndClick, typeInto } = require('../helpers');", "",
             f"class {name}Page {{", "  constructor(driver) {", "    this.driver = driver;",
             f"    this.search = By.css('#{low}-search');", f"    this.save = By.css('#{low} .save');",
             "  }", "", "  async open() {", f"    await this.driver.get(BASE_URL + '/{low}s');",
             "    return this;", "  }", ""]
    for i in range(10):
        verb = VERBS[i % len(VERBS)]
        lines += [f"  async {verb}{i}(value) {{",
                  f"    await typeInto(this.driver, By.name('{low}_{i}'), value);",
                  f"    await this.driver.findElement(By.css('#{low} .{verb}')).click();",
                  "    await waitAndClick(this.driver, this.save);", "    return this;", "  }", ""]
    lines += ["}", "", f"module.exports = {{ {name}Page }};", ""]
    return "\n".join(lines)


def js_hook_steps(rng, low, n):
    steps = []
    for i in range(n):
        kind = rng.randrange(4)
        if kind == 0:
            steps.append(f"    await driver.findElement(By.css('#{low}-panel .step-{i}')).click();")
        elif kind == 1:
            steps.append(f"    await driver.wait(until.elementLocated(By.id('{low}-ready-{i}')), 5000);")
        elif kind == 2:
            steps.append(f"    await typeInto(driver, By.name('{low}_filter_{i}'), '{low} {i}');")
        else:
            steps.append(f"    await driver.executeScript('window.scrollTo(0, {100 * i})');")
    return steps


def js_spec(rng, page, tests):
    low = page.lower()
    lines = ["const assert = require('assert');",
             "const { Builder, By, until } = require('selenium-webdriver');",
             "const { USER, PASSWORD, signIn, typeInto } = require('./helpers');",
             "const { prepareWorkspace } = require('./workspace');",
             f"const {{ {page}Page }} = require('./pages/{low}');", "",
             f"describe('{page}s', function () {{", "  this.timeout(60000);", "  let driver;",
             "  let page;", "", "  before(async function () {",
             "    driver = await new Builder().forBrowser('chrome').build();",
             "    await driver.manage().window().setRect({ width: 1280, height: 1024 });", "  });",
             "", "  beforeEach(async function () {", "    await signIn(driver, USER, PASSWORD);",
             "    await prepareWorkspace(driver, USER);",
             f"    page = new {page}Page(driver);", "    await page.open();"]
    lines += js_hook_steps(rng, low, 14)
    lines += ["  });", "", "  afterEach(async function () {",
              "    await driver.get('http://app.test/logout');", "  });", "",
              "  after(async function () {", "    await driver.quit();", "  });", ""]
    groups = max(1, tests // 5)
    k = 0
    for g in range(groups):
        n = tests // groups + (1 if g < tests % groups else 0)
        lines += [f"  describe('{VERBS[g % 12]} {low}s, group {g}', function () {{",
                  "    beforeEach(async function () {"]
        lines += ["  " + s for s in js_hook_steps(rng, f"{low}-{g}", 6)]
        lines += ["    });", ""]
        for _ in range(n):
            k += 1
            verb = VERBS[k % 10]
            call = [f"      await page.{verb}{k % 10}('{page} {k}');"] if k % 4 == 0 else []
            lines += [f"    it('can {verb} a {low} {k}', async function () {{"] + call + [
                      f"      const text = await driver.findElement(By.css('.{low}-title')).getText();",
                      f"      assert.ok(text.includes('{page} {k}'));", "    });", ""]
        lines[-1:] = ["  });", ""]
    lines += ["});", ""]
    return "\n".join(lines)


def gen_mocha(out, tests, files, seed):
    rng = random.Random(seed)
    pages = [cap(w) for w in WORDS[:max(1, files)]]
    size = write(out, "test/helpers.js", JS_HELPERS)
    size += write(out, "test/workspace.js", js_workspace(pages))
    for p in pages:
        size += write(out, f"test/pages/{p.lower()}.js", js_page(p))
    for i, p in enumerate(pages):
        n = tests // len(pages) + (1 if i < tests % len(pages) else 0)
        size += write(out, f"test/{p.lower()}.spec.js", js_spec(rng, p, n))
    write(out, ".mocharc.json", json.dumps({"spec": ["test/*.spec.js"], "timeout": 60000}) + "\n")
    write(out, "untangle.json", json.dumps({"suite": {"paths": ["test"],
                                                      "language": "javascript"}}, indent=1) + "\n")
    return {"lang": "javascript", "files": 2 * len(pages) + 2, "bytes": size}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("shape", choices=("testng", "mocha"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--tests", type=int)
    ap.add_argument("--files", type=int)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.shape == "testng":
        meta = gen_testng(a.out, a.tests or 1289, a.files or 378, a.seed)
        meta["tests"] = a.tests or 1289
    else:
        meta = gen_mocha(a.out, a.tests or 795, a.files or 30, a.seed)
        meta["tests"] = a.tests or 795
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
