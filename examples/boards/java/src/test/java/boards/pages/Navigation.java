package boards.pages;

import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedCondition;
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

    /**
     * Chromium reports an element of a page being replaced either as stale or, while the
     * new document loads, as "Node with given id does not belong to the document"; both
     * mean the old page is gone (Selenium's stalenessOf only knows the first).
     */
    static ExpectedCondition<Boolean> gone(WebElement element) {
        return d -> {
            try {
                element.isEnabled();
                return false;
            } catch (StaleElementReferenceException e) {
                return true;
            } catch (WebDriverException e) {
                String m = String.valueOf(e.getMessage());
                if (m.contains("does not belong to the document") || m.contains("No node with given id")) {
                    return true;
                }
                throw e;
            }
        };
    }

    public static void clickAndWait(WebDriver driver, WebElement element) {
        element.click();
        try {
            new WebDriverWait(driver, PAGE_LOAD_TIMEOUT_SECONDS).until(gone(element));
        } catch (TimeoutException e) {
            // no new page: let the test's own assertions report what is shown
            return;
        }
        // elements of a page that is still loading can vanish under the next command
        // ("Node with given id does not belong to the document")
        try {
            new WebDriverWait(driver, PAGE_LOAD_TIMEOUT_SECONDS).until(d -> {
                try {
                    return "complete".equals(((JavascriptExecutor) d).executeScript("return document.readyState"));
                } catch (WebDriverException e) {
                    return false; // still navigating
                }
            });
        } catch (TimeoutException e) {
            // let the test's own assertions report what is shown
        }
    }
}
