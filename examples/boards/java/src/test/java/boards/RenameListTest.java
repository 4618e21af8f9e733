package boards;

import static boards.pages.Navigation.clickAndWait;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import boards.pages.BoardsPage;
import boards.pages.LoginPage;

public class RenameListTest extends BaseTest {

    @Test
    public void renameListTest() {
        new LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD);
        new BoardsPage(driver).openBoard("Groceries");
        new Select(driver.findElement(By.id("rename_list_select"))).selectByVisibleText("Fruit");
        driver.findElement(By.id("new_list_name")).sendKeys("Vegetables");
        clickAndWait(driver, By.id("rename_list_button"));
        boolean found = false;
        for (WebElement name : driver.findElements(By.cssSelector(".list_name"))) {
            found |= name.getText().equals("Vegetables");
        }
        assertTrue("no list named Vegetables", found);
    }
}
