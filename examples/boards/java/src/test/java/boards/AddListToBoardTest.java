package boards;

import static boards.pages.Navigation.clickAndWait;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.openqa.selenium.By;

import boards.pages.BoardsPage;
import boards.pages.LoginPage;

public class AddListToBoardTest extends BaseTest {

    @Test
    public void addListToBoardTest() {
        new LoginPage(driver).login(ADMIN_EMAIL, ADMIN_PASSWORD);
        new BoardsPage(driver).openBoard("Groceries");
        driver.findElement(By.id("list_name")).sendKeys("Fruit");
        clickAndWait(driver, By.id("add_list_button"));
        assertTrue("no list named Fruit",
                driver.findElements(By.xpath("//h4[@class='list_name' and text()='Fruit']")).size() > 0);
    }
}
