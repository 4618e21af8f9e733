package boards;

import static boards.pages.Navigation.clickAndWait;
import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.openqa.selenium.By;

import boards.pages.BoardsPage;
import boards.pages.LoginPage;

public class RenameBoardTest extends BaseTest {

    @Test
    public void renameBoardTest() {
        new LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD);
        new BoardsPage(driver).openBoard("Work");
        driver.findElement(By.id("new_board_name")).sendKeys("Office");
        clickAndWait(driver, By.id("rename_board_button"));
        assertEquals("Office", driver.findElement(By.id("board_name_title")).getText());
    }
}
