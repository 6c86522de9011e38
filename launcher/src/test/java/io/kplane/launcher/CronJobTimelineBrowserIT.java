package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.testing.BrowserPage;
import io.kplane.apiserver.testing.HeadlessChromium;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
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
 * class's namespace), the clock steered with {@code kubectl-lite clock}: frozen at 2026-12-01T00:00:30Z,
 * a {@code *}{@code /5 * * * *} CronJob and {@code clock advance 15m --step 5m} show three created ticks
 * (linked to their Jobs) and the header's clock following to 00:15:30 without a reload; a Forbid CronJob
 * whose Job runs long shows a skipped tick with {@code JobAlreadyActive}. With
 * {@code -Dkplane.screenshots=DIR} it writes docs/learn.md's CronJob screenshots.
 *
 * <p><b>Why sharing the stack cannot leak this class's clock moves to another class.</b> The cluster
 * clock is the whole stack's: every component's timers follow it (docs/clock.md). Going from the frozen
 * future date back to real time is a jump back of about a week, after which every cluster-clock timer
 * armed meanwhile (the kubelets' lease renewals and heartbeats, the node monitor's passes, delaying
 * queues) waits for cluster time to catch up: the stack still looks healthy, but its nodes have stopped
 * heartbeating. Restoring the clock therefore does not give the next class the stack it had. Decided:
 * <em>order</em>, backed by a marker that makes the order a matter of time only, never of results:
 *
 * <ul>
 *   <li>this class runs after every other class sharing the stack ({@code @Order(Integer.MAX_VALUE - 1)};
 *       src/test/resources/junit-platform.properties orders classes by {@code @Order}); only StackDownIT,
 *       which just stops the stack, comes after it;
 *   <li>before it moves the clock it marks the stack ({@link SharedStack#clockMovedBack()}): a class that
 *       would still run after it, in whatever order, gets a new stack instead, and StackDownIT, which only
 *       stops it, takes it as it is ({@link SharedStack#anyClock});
 *   <li>it still hands the clock back at real time ({@code clock real}, after deleting its CronJobs), so
 *       that {@code kplane down} and anyone looking at the stack afterwards see wall time.
 * </ul>
 *
 * Restoring the clock and proving that nothing else depends on it was the alternative, rejected: freezing
 * in the past instead (so that going back to real time is a jump forward) leaves the kubelets' renewals,
 * armed at real time, waiting through the whole test, and the proof would be a stack-wide claim about
 * every timer any component may arm, which no test here can make.
 */
@Order(Integer.MAX_VALUE - 1)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CronJobTimelineBrowserIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration LONG = Duration.ofMinutes(2);
    private static final Instant START = Instant.parse("2026-12-01T00:00:30Z");

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
        STACK.clockMovedBack(); // before the first move: a failure half-way leaves it moved too
        assertThat(kubectlLite("clock", "freeze").code()).isZero();
        Result set = kubectlLite("clock", "set", START.toString());
        assertThat(set.code()).as(set.out()).isZero();
    }

    /** Hands the shared stack back at real time (best effort: clean-up never fails the class). */
    @AfterAll
    static void stopBrowserAndRestoreTheClock() {
        if (chromium != null) {
            chromium.close();
        }
        if (server == null) {
            return;
        }
        try {
            // first, so that no CronJob of this class fires again for the week the clock goes back
            kubectlLite("delete", "cronjob", "--all");
            Result real = kubectlLite("clock", "real");
            if (real.code() != 0) {
                System.err.println("CronJobTimelineBrowserIT: clock real failed: " + real.out());
            }
        } catch (Exception | AssertionError e) {
            System.err.println("CronJobTimelineBrowserIT: clock not restored: " + e);
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
                assertThat(text(browser, "#cluster-time")).isEqualTo("2026-12-01 00:00:30 UTC");
            });
            await().atMost(LONG).until(() -> !browser.findElements(By.cssSelector("#cronjob-timeline .tick-next"))
                    .isEmpty());
            assertThat(browser.findElements(By.cssSelector("#cronjob-timeline .tick-next"))
                            .get(0)
                            .getAttribute("data-time"))
                    .isEqualTo("2026-12-01T00:05:00Z");

            Result advance = kubectlLite("clock", "advance", "15m", "--step", "5m");
            assertThat(advance.code()).as(advance.out()).isZero();

            // the page was not reloaded: the clock display followed the Clock object's watch
            await("the clock display follows").atMost(LONG).untilAsserted(() -> assertThat(
                            text(browser, "#cluster-time"))
                    .isEqualTo("2026-12-01 00:15:30 UTC"));
            BrowserPage.awaitRedrawing("three created ticks").atMost(LONG).untilAsserted(() -> {
                List<WebElement> created =
                        browser.findElements(By.cssSelector("#cronjob-timeline .tick[data-state='created']"));
                assertThat(created)
                        .extracting(e -> e.getAttribute("data-time"))
                        .containsExactly("2026-12-01T00:05:00Z", "2026-12-01T00:10:00Z", "2026-12-01T00:15:00Z");
                assertThat(created)
                        .extracting(e -> e.getAttribute("data-job"))
                        .containsExactly(
                                "every5-" + minutes("2026-12-01T00:05:00Z"),
                                "every5-" + minutes("2026-12-01T00:10:00Z"),
                                "every5-" + minutes("2026-12-01T00:15:00Z"));
                // each is a link to its Job's object page
                assertThat(created.get(2).findElement(By.cssSelector("a")).getAttribute("href"))
                        .endsWith("#/object/jobs/" + ns + "/every5-" + minutes("2026-12-01T00:15:00Z"));
                assertThat(browser.findElements(By.cssSelector("#cronjob-timeline .tick-next"))
                                .get(0)
                                .getAttribute("data-time"))
                        .isEqualTo("2026-12-01T00:20:00Z");
                // the latest tick's outcome comes from the CronJob controller's sync record, not only from
                // the Job (the record is written when that sync ends, after its create: the page may see
                // the Job first)
                assertThat(browser.findElement(
                                        By.cssSelector("#cronjob-timeline .tick[data-time='2026-12-01T00:15:00Z']"))
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
            BrowserPage.awaitRedrawing("a skipped tick").atMost(LONG).untilAsserted(() -> {
                assertThat(browser.findElements(By.cssSelector("#cronjob-timeline .tick[data-state='created']")))
                        .extracting(e -> e.getAttribute("data-time"))
                        .containsExactly("2026-12-01T00:20:00Z");
                List<WebElement> skipped =
                        browser.findElements(By.cssSelector("#cronjob-timeline .tick[data-state='skipped']"));
                assertThat(skipped)
                        .extracting(e -> e.getAttribute("data-time"))
                        .containsExactly("2026-12-01T00:25:00Z");
                assertThat(skipped.get(0).getText()).contains("skipped: JobAlreadyActive");
                assertThat(text(browser, "#cluster-time")).isEqualTo("2026-12-01 00:25:30 UTC");
            });
            chromium.screenshot("learn-cronjob-forbid");
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(e.getMessage() + "\n" + chromium.diagnostics(), e);
        }
    }

    // --- helpers ---

    private static long minutes(String instant) {
        return Instant.parse(instant).getEpochSecond() / 60;
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

    /** Found and read in one script (BrowserPage): never a stale element. */
    private static String text(ChromeDriver browser, String css) {
        return new BrowserPage(browser).text(css);
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
