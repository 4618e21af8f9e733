package boards;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.openqa.selenium.By;

import boards.pages.LoginPage;

public class ViewBoardsTest extends BaseTest {

    @Test
    public void viewBoardsTest() {
        new LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD);
        assertEquals("My boards", driver.findElement(By.xpath("//h2[text()='My boards']")).getText());
        assertTrue("no link to Groceries", driver.findElements(By.linkText("Groceries")).size() > 0);
    }
}
