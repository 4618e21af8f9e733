package boards.pages;

import static boards.pages.Navigation.clickAndWait;

import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/** The sign-in page at the application root. */
public class LoginPage {

    private final WebDriver driver;

    private final By emailField = By.id("user_email");
    private final By passwordField = By.id("user_password");
    private final By signInButton = By.id("sign_in_button");

    public LoginPage(WebDriver driver) {
        this.driver = driver;
    }

    public void login(String email, String password) {
        driver.findElement(emailField).sendKeys(email);
        driver.findElement(passwordField).sendKeys(password);
        clickAndWait(driver, signInButton);
    }

    public SignUpPage goToSignUp() {
        clickAndWait(driver, By.linkText("Create new account"));
        return new SignUpPage(driver);
    }
}
