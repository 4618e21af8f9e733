// A five-test mocha suite for the per-command goldens (tests/golden/cases, "commands"):
// two chains of hidden dependencies through submitted values (the user, the board) and a
// test that depends on nothing; one title holds the characters dot and Mermaid escape.
const { By } = require('selenium-webdriver');

describe('boards', function () {
  beforeEach(async function () {
    await driver.get('http://app.test/');
  });

  it('adds a user', async function () {
    await driver.get('http://app.test/signup');
    await driver.findElement(By.id('email')).sendKeys('ann@boards.test');
    await driver.findElement(By.id('save')).click();
  });

  it('logs in', async function () {
    await driver.get('http://app.test/login');
    await driver.findElement(By.id('email')).sendKeys('ann@boards.test');
    await driver.findElement(By.id('login')).click();
  });

  it('adds a board', async function () {
    await driver.findElement(By.id('board')).sendKeys('Groceries');
    await driver.findElement(By.id('create')).click();
  });

  it('shows "Groceries" <b>bold</b> #1', async function () {
    await driver.get('http://app.test/boards');
    const text = await driver.findElement(By.css('h1')).getText();
    expect(text).to.equal('Groceries');
  });

  it('opens the help page', async function () {
    await driver.get('http://app.test/help');
  });
});
