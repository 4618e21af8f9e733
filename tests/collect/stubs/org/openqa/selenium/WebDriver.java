package org.openqa.selenium;

/* Compile-only stand-in for Selenium's WebDriver: the collection tests never call it. */
public interface WebDriver {
    void get(String url);

    WebElement findElement(By by);
}
