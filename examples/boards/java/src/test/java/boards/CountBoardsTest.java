package boards;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import boards.pages.LoginPage;

public class CountBoardsTest extends BaseTest {

    private static final String EXPECTED_COUNT = "You have 2 boards";

    @Test
    public void countBoardsTest() {
        new LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD);
        By count = By.id("boards_count");
        try {
            // app.js fills the counter after the page has loaded
            new WebDriverWait(driver, 2).until(ExpectedConditions.textToBe(count, EXPECTED_COUNT));
        } catch (TimeoutException e) {
            // the assertion below reports what the page says instead
        }
        assertEquals(EXPECTED_COUNT, driver.findElement(count).getText());
    }
}
