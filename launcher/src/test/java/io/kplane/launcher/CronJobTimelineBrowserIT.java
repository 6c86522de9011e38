package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.testing.HeadlessChromium;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The cluster clock and a CronJob's timeline in the {@code /ui}, in headless Debian Chromium against the
 * real stack ({@code kplane up}, every component its own process; the run's {@link SharedStack}, in this
 * class's namespace), the clock steered with {@code kubectl-lite clock}: frozen at 00:00:30Z of the day
 * before today (UTC), a {@code *}{@code /5 * * * *} CronJob and {@code clock advance 15m --step 5m} show
 * three created ticks (linked to their Jobs) and the header's clock following to 00:15:30 without a
 * reload; a Forbid CronJob whose Job runs long shows a skipped tick with {@code JobAlreadyActive}. With
 * {@code -Dkplane.screenshots=DIR} it writes docs/learn.md's CronJob screenshots.
 *
 * <p>Why yesterday: the stack is shared, so the class must hand the clock back as real time, and going
 * back to real time must be a jump forward. A jump back would leave every timer set while the clock
 * was ahead (lease renewals, monitor passes, back-offs) waiting for cluster time to catch up
 * (docs/clock.md, "Moving the clock back"); a jump forward fires them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CronJobTimelineBrowserIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration LONG = Duration.ofMinutes(2);
    /** The frozen clock's day: yesterday (UTC), so the cluster clock stays behind wall time. */
    private static final LocalDate DAY = LocalDate.now(ZoneOffset.UTC).minusDays(1);

    private static final Instant START = at("00:00:30");

    @RegisterExtension
    static final SharedStack STACK = new SharedStack("cron-ui");

    private static String server;
    private static String ns;
    private static HeadlessChromium chromium;

    @BeforeAll
    static void startBrowserAndFreezeTheClock() throws Exception {
        HeadlessChromium.assumeInstalled();
        server = STACK.server();
        ns = STACK.namespace();
        await("the cronjob controller announces its lens")
                .atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() -> get("/ui/api/components").contains("\"cronjob-controller\""));
        chromium = HeadlessChromium.start();
        assertThat(kubectlLite("clock", "freeze").code()).isZero();
        Result set = kubectlLite("clock", "set", START.toString());
        assertThat(set.code()).as(set.out()).isZero();
    }

    /** The shared stack back as it was: no CronJob of this class left to fire, the clock real again. */
    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        try {
            kubectlLite("delete", "cronjobs", "--all");
            kubectlLite("clock", "real");
        } catch (Exception | AssertionError e) {
            System.err.println("CronJobTimelineBrowserIT: clean-up failed: " + e);
        }
    }

    @Test
    @Order(1)
    void aFrozenClockAdvancedFifteenMinutesShowsThreeCreatedTicks() throws Exception {
        createCronJob("every5", "Allow", "echo tick");
        ChromeDriver browser = chromium.driver();
        browser.get(server + "/ui/#/object/cronjobs/" + ns + "/every5");
        try {
            await("the header shows the frozen clock").atMost(LONG).untilAsserted(() -> {
                assertThat(text(browser, "#cluster-clock-badge")).isEqualTo("frozen");
                assertThat(text(browser, "#cluster-time")).isEqualTo(shown("00:00:30"));
            });
            await().atMost(LONG).until(() -> !browser.findElements(By.cssSelector("#cronjob-timeline .tick-next"))
                    .isEmpty());
            assertThat(browser.findElements(By.cssSelector("#cronjob-timeline .tick-next"))
                            .get(0)
                            .getAttribute("data-time"))
                    .isEqualTo(at("00:05:00").toString());

            Result advance = kubectlLite("clock", "advance", "15m", "--step", "5m");
            assertThat(advance.code()).as(advance.out()).isZero();

            // the page was not reloaded: the clock display followed the Clock object's watch
            await("the clock display follows").atMost(LONG).untilAsserted(() -> assertThat(
                            text(browser, "#cluster-time"))
                    .isEqualTo(shown("00:15:30")));
            await("three created ticks").atMost(LONG).untilAsserted(() -> {
                List<WebElement> created =
                        browser.findElements(By.cssSelector("#cronjob-timeline .tick[data-state='created']"));
                assertThat(created)
                        .extracting(e -> e.getAttribute("data-time"))
                        .containsExactly(
                                at("00:05:00").toString(),
                                at("00:10:00").toString(),
                                at("00:15:00").toString());
                assertThat(created)
                        .extracting(e -> e.getAttribute("data-job"))
                        .containsExactly(
                                "every5-" + minutes("00:05:00"),
                                "every5-" + minutes("00:10:00"),
                                "every5-" + minutes("00:15:00"));
                // each is a link to its Job's object page
                assertThat(created.get(2).findElement(By.cssSelector("a")).getAttribute("href"))
                        .endsWith("#/object/jobs/" + ns + "/every5-" + minutes("00:15:00"));
                assertThat(browser.findElements(By.cssSelector("#cronjob-timeline .tick-next"))
                                .get(0)
                                .getAttribute("data-time"))
                        .isEqualTo(at("00:20:00").toString());
                // the latest tick's outcome comes from the CronJob controller's sync record, not only from
                // the Job (the record is written when that sync ends, after its create: the page may see
                // the Job first)
                assertThat(browser.findElement(
                                        By.cssSelector("#cronjob-timeline .tick[data-time='" + at("00:15:00") + "']"))
                                .getAttribute("data-source"))
                        .isEqualTo("record");
            });
            chromium.screenshot("learn-cronjob-timeline");
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(e.getMessage() + "\n" + chromium.diagnostics(), e);
        }
    }

    @Test
    @Order(2)
    void aForbidCronJobWithALongJobShowsASkippedTickWithJobAlreadyActive() throws Exception {
        createCronJob("forbid", "Forbid", "sleep 3600");
        Result advance = kubectlLite("clock", "advance", "10m", "--step", "5m");
        assertThat(advance.code()).as(advance.out()).isZero();
        ChromeDriver browser = chromium.driver();
        browser.get(server + "/ui/#/object/cronjobs/" + ns + "/forbid");
        try {
            await("a skipped tick").atMost(LONG).untilAsserted(() -> {
                assertThat(browser.findElements(By.cssSelector("#cronjob-timeline .tick[data-state='created']")))
                        .extracting(e -> e.getAttribute("data-time"))
                        .containsExactly(at("00:20:00").toString());
                List<WebElement> skipped =
                        browser.findElements(By.cssSelector("#cronjob-timeline .tick[data-state='skipped']"));
                assertThat(skipped)
                        .extracting(e -> e.getAttribute("data-time"))
                        .containsExactly(at("00:25:00").toString());
                assertThat(skipped.get(0).getText()).contains("skipped: JobAlreadyActive");
                assertThat(text(browser, "#cluster-time")).isEqualTo(shown("00:25:30"));
            });
            chromium.screenshot("learn-cronjob-forbid");
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(e.getMessage() + "\n" + chromium.diagnostics(), e);
        } finally {
            kubectlLite("delete", "cronjob", "forbid"); // the clock goes back to real time in stop()
        }
    }

    // --- helpers ---

    /** {@code hh:mm:ss} UTC of {@link #DAY}. */
    private static Instant at(String time) {
        return DAY.atTime(LocalTime.parse(time)).toInstant(ZoneOffset.UTC);
    }

    /** The header's display of {@code hh:mm:ss} of {@link #DAY}. */
    private static String shown(String time) {
        return DAY + " " + time + " UTC";
    }

    /** The minutes since the epoch of {@code hh:mm:ss} of {@link #DAY}: a scheduled Job's name suffix. */
    private static long minutes(String time) {
        return at(time).getEpochSecond() / 60;
    }

    private static void createCronJob(String name, String policy, String command) throws Exception {
        String cj =
                """
                {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"%s","namespace":"%s"},
                 "spec":{"schedule":"*/5 * * * *","concurrencyPolicy":"%s","jobTemplate":{"spec":{"template":{"spec":{
                   "restartPolicy":"Never","terminationGracePeriodSeconds":0,
                   "containers":[{"name":"main","image":"busybox:1.28","command":["sh","-c","%s"]}]}}}}}}
                """
                        .formatted(name, ns, policy, command);
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(server + "/apis/batch/v1/namespaces/" + ns + "/cronjobs"))
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(cj))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }

    private static String text(ChromeDriver browser, String css) {
        List<WebElement> found = browser.findElements(By.cssSelector(css));
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    private static String get(String path) throws Exception {
        return HTTP.send(
                        HttpRequest.newBuilder(URI.create(server + path))
                                .timeout(Duration.ofSeconds(60))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    record Result(int code, String out) {}

    private static Result kubectlLite(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                LaunchedStack.ROOT.resolve("deploy/bin/kplane-component").toString(),
                "kubectl-lite",
                "--kubeconfig",
                STACK.kubeconfig().toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out);
    }
}
