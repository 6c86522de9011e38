package io.kplane.apiserver.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's {@code chromium} driven by Debian's {@code chromedriver} (Selenium WebDriver), headless, with
 * a fresh profile and no network of its own (no sync, updates or QUIC). Tests skip with a clear message
 * only when those packages are not installed ({@code .ci/run} installs them).
 *
 * <p>{@link #screenshot(String)} writes {@code <dir>/<name>.png} when the system property
 * {@code kplane.screenshots} names a directory (docs/learn.md's images are made this way).
 */
public final class HeadlessChromium implements AutoCloseable {
    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** Skips the calling test when chromium or chromedriver is missing. */
    public static void assumeInstalled() {
        Assumptions.assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Debian packages chromium and chromium-driver are not installed (apt-get install chromium chromium-driver): "
                        + "the real-browser test of the lens UI is skipped");
    }

    public static HeadlessChromium start() throws IOException {
        assumeInstalled();
        // No global Awaitility default here: a wait whose condition reads WebElements of a redrawing page
        // says so itself (BrowserPage.awaitRedrawing), and BrowserPage's reads are never stale.
        Path profile = Files.createTempDirectory("kplane-chromium");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1600,1000",
                "--user-data-dir=" + profile);
        options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
        return new HeadlessChromium(driver, profile);
    }

    public ChromeDriver driver() {
        return driver;
    }

    /** The page's visible text and the browser console, for a failing test's message. */
    public String diagnostics() {
        StringBuilder out =
                new StringBuilder("URL: ").append(driver.getCurrentUrl()).append("\n--- page text ---\n");
        try {
            out.append(
                    driver.findElement(org.openqa.selenium.By.tagName("body")).getText());
            out.append("\n--- console ---\n");
            driver.manage().logs().get("browser").forEach(e -> out.append(e.getLevel())
                    .append(' ')
                    .append(e.getMessage())
                    .append('\n'));
        } catch (RuntimeException e) {
            out.append("(cannot read the page: ").append(e).append(')');
        }
        return out.toString();
    }

    /** Saves a PNG of the page when {@code -Dkplane.screenshots=DIR} is set; returns whether it did. */
    public boolean screenshot(String name) throws IOException {
        String dir = System.getProperty("kplane.screenshots");
        if (dir == null || dir.isBlank()) {
            return false;
        }
        Path target = Path.of(dir).resolve(name + ".png");
        Files.createDirectories(target.getParent());
        File png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(png.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        return true;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temp profile left behind is harmless
            }
        }
    }
}
