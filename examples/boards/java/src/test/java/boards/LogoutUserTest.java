package boards;

import static boards.pages.Navigation.clickAndWait;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.openqa.selenium.By;

import boards.pages.LoginPage;

public class LogoutUserTest extends BaseTest {

    @Test
    public void logoutUserTest() {
        new LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD);
        clickAndWait(driver, By.id("sign_out_link"));
        assertTrue(driver.findElement(By.id("sign_in_button")).isDisplayed());
    }
}
