package boards;

import static boards.pages.Navigation.clickAndWait;
import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.openqa.selenium.By;

import boards.pages.LoginPage;
import boards.pages.SignUpPage;

public class AddUserTest extends BaseTest {

    @Test
    public void addUserTest() {
        SignUpPage signUpPage = new LoginPage(driver).goToSignUp();
        signUpPage.signUp(JANE_FIRST_NAME, JANE_LAST_NAME, JANE_EMAIL, JANE_PASSWORD);
        assertEquals("Jane Doe", driver.findElement(By.id("current_user")).getText());
        clickAndWait(driver, By.id("sign_out_link"));
    }
}
