// Page objects of the boards application (see ../../SCENARIO.md for the ids).
// Every method works on the page the browser is on; none of them waits for state
// that should already be there (implicit wait is 0), so a test whose data is
// missing fails at once. Explicit waits only where app.js changes the page.
'use strict';

const { By, error, until } = require('selenium-webdriver');
const { Select } = require('selenium-webdriver/lib/select');

const APP_JS_WAIT_MS = 2000;
// Clicking a link or a submit button returns before the next page has replaced the
// current one; waiting for the clicked element to go stale keeps the following
// lookups off the old page. Every such click in the scenario navigates, so this
// never delays a test whose state is missing.
const NAVIGATION_WAIT_MS = 5000;

async function clickAndWaitForPage(driver, locator, within = driver) {
  const element = await within.findElement(locator);
  await element.click();
  await driver.wait(async () => {
    try {
      await element.getTagName();
      return false;
    } catch (err) {
      // Chromium reports an element of a replaced document either as stale or,
      // while the new document loads, as not belonging to the document.
      if (err instanceof error.StaleElementReferenceError) return true;
      if (/does not belong to the document/.test(err.message)) return true;
      return false;
    }
  }, NAVIGATION_WAIT_MS, `no new page after clicking ${locator}`);
  await driver.wait(async () => {
    try {
      return (await driver.executeScript('return document.readyState')) === 'complete';
    } catch (_) {
      return false; // still navigating
    }
  }, NAVIGATION_WAIT_MS, `page after clicking ${locator} did not finish loading`);
}

class Header {
  constructor(driver) {
    this.driver = driver;
  }

  async currentUser() {
    return (await this.driver.findElement(By.id('current_user'))).getText();
  }

  async signOut() {
    await clickAndWaitForPage(this.driver, By.id('sign_out_link'));
  }
}

class LoginPage {
  constructor(driver) {
    this.driver = driver;
  }

  async login(email, password) {
    await this.driver.findElement(By.id('user_email')).sendKeys(email);
    await this.driver.findElement(By.id('user_password')).sendKeys(password);
    await clickAndWaitForPage(this.driver, By.id('sign_in_button'));
  }

  async signInButtonDisplayed() {
    return (await this.driver.findElement(By.id('sign_in_button'))).isDisplayed();
  }
}

class SignUpPage {
  constructor(driver) {
    this.driver = driver;
  }

  // From the sign-in page, through the "Create new account" link.
  async open() {
    await clickAndWaitForPage(this.driver, By.id('sign_up_link'));
    return this;
  }

  async signUp(firstName, lastName, email, password) {
    await this.driver.findElement(By.id('user_first_name')).sendKeys(firstName);
    await this.driver.findElement(By.id('user_last_name')).sendKeys(lastName);
    await this.driver.findElement(By.id('user_email')).sendKeys(email);
    await this.driver.findElement(By.id('user_password')).sendKeys(password);
    await this.driver.findElement(By.id('user_password_confirmation')).sendKeys(password);
    await clickAndWaitForPage(this.driver, By.id('sign_up_button'));
  }

  async error() {
    return (await this.driver.findElement(By.id('error'))).getText();
  }
}

class BoardsPage {
  constructor(driver) {
    this.driver = driver;
  }

  async addBoard(name) {
    await this.driver.findElement(By.id('add_new_board')).click();
    // app.js reveals the hidden form.
    const input = await this.driver.findElement(By.id('board_name'));
    await this.driver.wait(until.elementIsVisible(input), APP_JS_WAIT_MS);
    await input.sendKeys(name);
    await clickAndWaitForPage(this.driver, By.id('create_board_button'));
  }

  async hasBoardLink(name) {
    return (await this.driver.findElements(By.linkText(name))).length > 0;
  }

  async openBoard(name) {
    await clickAndWaitForPage(this.driver, By.linkText(name));
    return new BoardPage(this.driver);
  }

  async openSharedBoard(name) {
    const shared = await this.driver.findElement(By.id('shared_boards'));
    await clickAndWaitForPage(this.driver, By.linkText(name), shared);
    return new BoardPage(this.driver);
  }

  // "You have N boards", written by app.js once the page has loaded.
  async boardsCount(expected) {
    const count = await this.driver.findElement(By.id('boards_count'));
    try {
      await this.driver.wait(until.elementTextIs(count, expected), APP_JS_WAIT_MS);
    } catch (_) {
      // Fall through: the caller's assertion reports what is there instead.
    }
    return count.getText();
  }

  async headings() {
    const h2s = await this.driver.findElements(By.css('h2'));
    return Promise.all(h2s.map((h) => h.getText()));
  }
}

class BoardPage {
  constructor(driver) {
    this.driver = driver;
  }

  async title() {
    return (await this.driver.findElement(By.id('board_name_title'))).getText();
  }

  async listNames() {
    const names = await this.driver.findElements(By.css('.list_name'));
    return Promise.all(names.map((n) => n.getText()));
  }

  async addList(name) {
    await this.driver.findElement(By.id('list_name')).sendKeys(name);
    await clickAndWaitForPage(this.driver, By.id('add_list_button'));
  }

  async renameList(oldName, newName) {
    const select = new Select(await this.driver.findElement(By.id('rename_list_select')));
    await select.selectByVisibleText(oldName);
    await this.driver.findElement(By.id('new_list_name')).sendKeys(newName);
    await clickAndWaitForPage(this.driver, By.id('rename_list_button'));
  }

  async addMember(email) {
    await this.driver.findElement(By.id('member_email')).sendKeys(email);
    await clickAndWaitForPage(this.driver, By.id('add_member_button'));
  }

  async members() {
    const items = await this.driver.findElements(By.css('#members > li'));
    return Promise.all(items.map((li) => li.getText()));
  }

  async rename(newName) {
    await this.driver.findElement(By.id('new_board_name')).sendKeys(newName);
    await clickAndWaitForPage(this.driver, By.id('rename_board_button'));
  }

  async delete() {
    await clickAndWaitForPage(this.driver, By.id('delete_board_button'));
    return new BoardsPage(this.driver);
  }
}

module.exports = { Header, LoginPage, SignUpPage, BoardsPage, BoardPage };
