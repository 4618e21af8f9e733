package boards;

import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.openqa.selenium.By;

import boards.pages.BoardsPage;
import boards.pages.LoginPage;

public class AddBoardTest extends BaseTest {

    @Test
    public void addBoardTest() {
        new LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD);
        new BoardsPage(driver).addBoard("Groceries");
        assertTrue("no link to the new board",
                driver.findElement(By.linkText("Groceries")).isDisplayed());
    }
}
