package boards;

import static boards.pages.Navigation.clickAndWait;
import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.openqa.selenium.By;

import boards.pages.LoginPage;

public class ViewSharedBoardTest extends BaseTest {

    @Test
    public void viewSharedBoardTest() {
        new LoginPage(driver).login(JANE_EMAIL, JANE_PASSWORD);
        clickAndWait(driver, By.xpath("//ul[@id='shared_boards']//a[text()='Groceries']"));
        assertEquals("Vegetables", driver.findElement(By.cssSelector("div.list > h4.list_name")).getText());
    }
}
