package boards;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.openqa.selenium.By;

import boards.pages.LoginPage;

public class AddDuplicateUserTest extends BaseTest {

    @Test
    public void addDuplicateUserTest() {
        new LoginPage(driver).goToSignUp()
                .signUp(JANE_FIRST_NAME, JANE_LAST_NAME, JANE_EMAIL, JANE_PASSWORD);
        assertEquals("Email has already been taken", driver.findElement(By.id("error")).getText());
    }
}
