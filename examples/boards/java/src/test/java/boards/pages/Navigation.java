package boards.pages;

import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * ChromeDriver does not always wait for the page load that a click on a submit button
 * or a link starts: the next findElement could then see the old page. Every click that
 * leads to a new page goes through here and waits until the clicked element is gone.
 */
public final class Navigation {

    /** Generous for loaded CI machines; only spent in full when a click starts no page load (never, in the scenario). */
    private static final long PAGE_LOAD_TIMEOUT_SECONDS = 30;

    private Navigation() {
    }

    public static void clickAndWait(WebDriver driver, By locator) {
        clickAndWait(driver, driver.findElement(locator));
    }

    public static void clickAndWait(WebDriver driver, WebElement element) {
        element.click();
        try {
            new WebDriverWait(driver, PAGE_LOAD_TIMEOUT_SECONDS).until(ExpectedConditions.stalenessOf(element));
        } catch (TimeoutException e) {
            // no new page: let the test's own assertions report what is shown
        }
    }
}
