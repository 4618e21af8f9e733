package org.openqa.selenium;

/* Compile-only stand-in for Selenium's WebElement. */
public interface WebElement {
    void sendKeys(CharSequence... keys);

    void click();
}
