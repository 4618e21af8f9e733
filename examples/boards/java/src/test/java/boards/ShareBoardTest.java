package boards;

import static boards.pages.Navigation.clickAndWait;
import static org.hamcrest.CoreMatchers.containsString;
import static org.hamcrest.MatcherAssert.assertThat;

import org.junit.Test;
import org.openqa.selenium.By;

import boards.pages.BoardsPage;
import boards.pages.LoginPage;

public class ShareBoardTest extends BaseTest {

    @Test
    public void shareBoardTest() {
        new LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD);
        new BoardsPage(driver).openBoard("Groceries");
        driver.findElement(By.id("member_email")).sendKeys("jane@boards.test");
        clickAndWait(driver, By.id("add_member_button"));
        assertThat(driver.findElement(By.id("members")).getText(), containsString("jane@boards.test"));
    }
}
