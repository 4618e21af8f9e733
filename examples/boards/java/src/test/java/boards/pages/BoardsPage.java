package boards.pages;

import static boards.pages.Navigation.clickAndWait;

import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The signed-in user's board list at /boards. */
public class BoardsPage {

    /** app.js shows the new-board form; give it at most this long. */
    private static final long APP_JS_TIMEOUT_SECONDS = 2;

    private final WebDriver driver;

    public BoardsPage(WebDriver driver) {
        this.driver = driver;
    }

    public void addBoard(String name) {
        driver.findElement(By.id("add_new_board")).click();
        new WebDriverWait(driver, APP_JS_TIMEOUT_SECONDS)
                .until(ExpectedConditions.visibilityOfElementLocated(By.id("board_name")))
                .sendKeys(name);
        clickAndWait(driver, By.id("create_board_button"));
    }

    public void openBoard(String name) {
        clickAndWait(driver, By.linkText(name));
    }
}
