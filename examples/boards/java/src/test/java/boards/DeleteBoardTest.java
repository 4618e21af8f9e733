package boards;

import static boards.pages.Navigation.clickAndWait;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.openqa.selenium.By;

import boards.pages.BoardsPage;
import boards.pages.LoginPage;

public class DeleteBoardTest extends BaseTest {

    @Test
    public void deleteBoardTest() {
        new LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD);
        new BoardsPage(driver).openBoard("Office");
        clickAndWait(driver, By.id("delete_board_button"));
        assertTrue("still on a board page: " + driver.getCurrentUrl(),
                driver.getCurrentUrl().endsWith("/boards"));
        assertTrue("the deleted board is still listed",
                driver.findElements(By.linkText("Office")).isEmpty());
    }
}
