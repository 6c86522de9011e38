package io.kplane.apiserver.testing;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.core.ConditionFactory;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Reads of a page that redraws while a test reads it. The lens UI replaces its rows and notes as records
 * arrive, so a {@code WebElement} found a moment ago may be gone when the test reads it
 * ({@code StaleElementReferenceException}, seen at load ~40 between a find and its {@code getText}).
 * Every read here finds and reads in one script, which runs on the page's own thread: no redraw can come
 * between the two, so a read is never stale, and a wait that calls it re-finds the element on each try.
 * A click, which needs a WebElement, is retried with a fresh find until one lands.
 */
public final class BrowserPage {
    private final ChromeDriver browser;

    public BrowserPage(ChromeDriver browser) {
        this.browser = browser;
    }

    /**
     * An await whose condition reads {@code WebElement}s itself (e.g. a list of found elements' attributes):
     * an element the page replaced between the find and the read is a reason to look again, not a
     * failure. Only such waits retry it; elsewhere a stale element still fails the test at once (a test
     * that holds an element across a redraw on purpose asserts that it survives).
     */
    public static ConditionFactory awaitRedrawing(String alias) {
        return await(alias).ignoreException(StaleElementReferenceException.class);
    }

    /** The rendered text ({@code innerText}, like WebDriver's {@code getText}) of the first match, "" if none. */
    public String text(String css) {
        Object text = browser.executeScript(
                "const e = document.querySelector(arguments[0]); return e ? e.innerText.trim() : '';", css);
        return text == null ? "" : text.toString();
    }

    /** Whether the first match exists and is rendered (not hidden, not inside a hidden ancestor). */
    public boolean displayed(String css) {
        Object shown = browser.executeScript(
                "const e = document.querySelector(arguments[0]);"
                        + " return !!e && !e.hidden && e.getClientRects().length > 0"
                        + " && getComputedStyle(e).visibility !== 'hidden';",
                css);
        return Boolean.TRUE.equals(shown);
    }

    /** Whether the first match exists and is not disabled. */
    public boolean enabled(String css) {
        Object enabled = browser.executeScript(
                "const e = document.querySelector(arguments[0]); return !!e && !e.disabled;", css);
        return Boolean.TRUE.equals(enabled);
    }

    /** How many elements match now. */
    public int count(String css) {
        return ((Number) browser.executeScript("return document.querySelectorAll(arguments[0]).length;", css))
                .intValue();
    }

    /** The named attributes of every match, in document order (a missing attribute is ""). */
    @SuppressWarnings("unchecked")
    public List<Map<String, String>> attributes(String css, String... names) {
        return (List<Map<String, String>>) browser.executeScript(
                "return Array.from(document.querySelectorAll(arguments[0])).map(e => {"
                        + " const out = {}; for (const n of arguments[1]) out[n] = e.getAttribute(n) || ''; return out; });",
                css,
                List.of(names));
    }

    /**
     * Clicks the first match, finding it again when the page replaced it between the find and the click
     * (the click is then retried on the new element; it fails after {@code within} with the last cause).
     */
    public void click(By by, Duration within) {
        await("click " + by)
                .atMost(within)
                .ignoreException(StaleElementReferenceException.class)
                .until(() -> {
                    browser.findElement(by).click();
                    return true;
                });
    }
}
