// The boards scenario (../../SCENARIO.md) as a mocha + selenium-webdriver suite.
// The 14 tests share the application's state: several of them only pass after
// others have run (that is what untangle is meant to find).
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Builder } = require('selenium-webdriver');
const chrome = require('selenium-webdriver/chrome');
const { Header, LoginPage, SignUpPage, BoardsPage, BoardPage } = require('./pages');

const BASE_URL = (process.env.BOARDS_URL ||
  `http://127.0.0.1:${Number(process.env.BOARDS_PORT_BASE || 18080) + Number(process.env.APP_WORKER || process.env.UNTANGLE_WORKER || 0)}`).replace(/\/+$/, '');

const ADMIN_EMAIL = 'john@phoenix-trello.com';
const ADMIN_PASSWORD = '12345678';
const JANE_FIRST_NAME = 'Jane';
const JANE_LAST_NAME = 'Doe';
const JANE_EMAIL = 'jane@boards.test';
const JANE_PASSWORD = 'janepass1';

let driver;
let profileDir;

before(async function () {
  this.timeout(60000);
  profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'boards-chromium-'));
  const options = new chrome.Options();
  options.setChromeBinaryPath(process.env.EXAMPLE_BROWSER || '/usr/bin/chromium'); // ci/test: examples/headless-shell
  options.addArguments(
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-dev-shm-usage',
    `--user-data-dir=${profileDir}`,
  );
  const service = new chrome.ServiceBuilder('/usr/bin/chromedriver');
  if (process.env.CHROMEDRIVER_LOG) service.loggingTo(process.env.CHROMEDRIVER_LOG).enableVerboseLogging();
  driver = await new Builder()
    .forBrowser('chrome')
    .setChromeOptions(options)
    .setChromeService(service)
    .build();
  await driver.manage().setTimeouts({ implicit: 0, pageLoad: 10000, script: 5000 });
});

after(async function () {
  this.timeout(30000);
  if (driver) await driver.quit();
  if (profileDir) fs.rmSync(profileDir, { recursive: true, force: true });
});

beforeEach(async function () {
  this.timeout(20000);
  // Every test starts signed out on the root page.
  await driver.get(`${BASE_URL}/`);
  await driver.manage().deleteAllCookies();
  await driver.get(`${BASE_URL}/`);
});

async function adminLogin() {
  await new LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD);
  return new BoardsPage(driver);
}

async function janeLogin() {
  await new LoginPage(driver).login(JANE_EMAIL, JANE_PASSWORD);
  return new BoardsPage(driver);
}

describe('Boards', function () {
  this.timeout(20000);

  it('adds a user', async function () {
    const signUp = await new SignUpPage(driver).open();
    await signUp.signUp(JANE_FIRST_NAME, JANE_LAST_NAME, JANE_EMAIL, JANE_PASSWORD);
    const header = new Header(driver);
    assert.equal(await header.currentUser(), 'Jane Doe');
    await header.signOut();
  });

  it('logs in the new user', async function () {
    await janeLogin();
    assert.equal(await new Header(driver).currentUser(), 'Jane Doe');
  });

  it('adds a board', async function () {
    const boards = await adminLogin();
    await boards.addBoard('Groceries');
    assert.ok(await boards.hasBoardLink('Groceries'), 'no link "Groceries" after adding the board');
  });

  it('adds a work board', async function () {
    const boards = await adminLogin();
    await boards.addBoard('Work');
    assert.ok(await boards.hasBoardLink('Work'), 'no link "Work" after adding the board');
  });

  it('shares a board with the new user', async function () {
    const boards = await adminLogin();
    const board = await boards.openBoard('Groceries');
    await board.addMember('jane@boards.test');
    assert.ok((await board.members()).includes('jane@boards.test'),
      'jane@boards.test is not among the members');
  });

  it('adds a list to a board', async function () {
    const boards = await adminLogin();
    const board = await boards.openBoard('Groceries');
    await board.addList('Fruit');
    assert.ok((await board.listNames()).includes('Fruit'), 'no list "Fruit"');
  });

  it('renames a list', async function () {
    const boards = await adminLogin();
    const board = await boards.openBoard('Groceries');
    await board.renameList('Fruit', 'Vegetables');
    assert.ok((await board.listNames()).includes('Vegetables'), 'no list "Vegetables"');
  });

  it('shows the shared board to the new user', async function () {
    const boards = await janeLogin();
    const board = await boards.openSharedBoard('Groceries');
    assert.ok((await board.listNames()).includes('Vegetables'), 'no list "Vegetables"');
  });

  it('counts the boards', async function () {
    const boards = await adminLogin();
    assert.equal(await boards.boardsCount('You have 2 boards'), 'You have 2 boards');
  });

  it('renames a board', async function () {
    const boards = await adminLogin();
    const board = await boards.openBoard('Work');
    await board.rename('Office');
    assert.equal(await new BoardPage(driver).title(), 'Office');
  });

  it('deletes a board', async function () {
    const boards = await adminLogin();
    const board = await boards.openBoard('Office');
    const after = await board.delete();
    assert.ok(!(await after.hasBoardLink('Office')), 'link "Office" still there after deleting');
  });

  it('logs out', async function () {
    await adminLogin();
    await new Header(driver).signOut();
    assert.ok(await new LoginPage(driver).signInButtonDisplayed(), 'sign-in button not displayed');
  });

  it('lists the boards', async function () {
    const boards = await adminLogin();
    assert.ok((await boards.headings()).includes('My boards'), 'no heading "My boards"');
    assert.ok(await boards.hasBoardLink('Groceries'), 'no link "Groceries"');
  });

  it('rejects a duplicate user', async function () {
    const signUp = await new SignUpPage(driver).open();
    await signUp.signUp(JANE_FIRST_NAME, JANE_LAST_NAME, JANE_EMAIL, JANE_PASSWORD);
    assert.equal(await signUp.error(), 'Email has already been taken');
  });
});
