package boards.pages;

import static boards.pages.Navigation.clickAndWait;

import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/** The sign-up page at /sign_up. */
public class SignUpPage {

    private final WebDriver driver;

    public SignUpPage(WebDriver driver) {
        this.driver = driver;
    }

    public void signUp(String firstName, String lastName, String email, String password) {
        driver.findElement(By.id("user_first_name")).sendKeys(firstName);
        driver.findElement(By.id("user_last_name")).sendKeys(lastName);
        driver.findElement(By.id("user_email")).sendKeys(email);
        driver.findElement(By.id("user_password")).sendKeys(password);
        driver.findElement(By.id("user_password_confirmation")).sendKeys(password);
        clickAndWait(driver, By.id("sign_up_button"));
    }
}
