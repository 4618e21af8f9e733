package boards;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.openqa.selenium.By;

import boards.pages.LoginPage;

public class LoginUserTest extends BaseTest {

    @Test
    public void loginUserTest() {
        new LoginPage(driver).login(JANE_EMAIL, JANE_PASSWORD);
        assertEquals("Jane Doe", driver.findElement(By.id("current_user")).getText());
    }
}
