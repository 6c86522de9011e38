package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.testing.BrowserPage;
import io.kplane.apiserver.testing.HeadlessChromium;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Issue 12 item 6, the UI half: the lens page following the job controller (every key) while a heavy
 * Job runs ({@code -Dkplane.uiLoad.completions}, default 500, at parallelism 100, real containers on the
 * real stack), measured in headless Chromium and printed:
 * <ul>
 *   <li>long tasks (PerformanceObserver {@code longtask}: main-thread tasks over 50 ms): count, total, max;</li>
 *   <li>input to next frame: a real keystroke into the page's "Follow key" field (sent by WebDriver as a
 *       user's), timed from just before it to the first animation frame after it, once a second;</li>
 *   <li>the records/s the page received and whether it showed its sampling notice.</li>
 * </ul>
 * Only a generous sanity bound is asserted (p95 input-to-frame under 1 s); the figures are the result.
 * docs/lens.md records a run.
 */
class LensUiLoadBrowserIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int COMPLETIONS = Integer.getInteger("kplane.uiLoad.completions", 500);
    private static final int PARALLELISM = Integer.getInteger("kplane.uiLoad.parallelism", 100);
    private static Path stateDir;
    private static Process launcher;
    private static String server;
    private static HeadlessChromium chromium;

    @BeforeAll
    static void startStackAndBrowser() throws Exception {
        HeadlessChromium.assumeInstalled();
        LaunchedStack stack = LaunchedStack.up(
                "kplane-lens-load", 1, List.of("kubelet-sim=--max-pods=" + Math.max(110, PARALLELISM + 10)));
        stateDir = stack.stateDir();
        launcher = stack.launcher();
        server = stack.server();
        await("the job controller announces its lens")
                .atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() -> get("/ui/api/components").contains("\"job-controller\""));
        chromium = HeadlessChromium.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
        if (launcher != null) {
            LaunchedStack.down(launcher, stateDir);
        }
    }

    @Test
    void theLanesStayResponsiveAndSayWhenTheySample() throws Exception {
        ChromeDriver browser = chromium.driver();
        browser.get(server + "/ui/#/lanes/job-controller/job");
        await().atMost(Duration.ofMinutes(2)).until(() -> text(browser, "#conn").contains("live"));
        browser.executeScript(
                """
                window.__kplaneLoad = { longTasks: [], sampled: false, frames: [] };
                new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__kplaneLoad.longTasks.push(e.duration)))
                  .observe({ type: 'longtask', buffered: true });
                const notice = document.getElementById('sampling');
                new MutationObserver(() => { if (!notice.hidden && /Sampling|sampling/.test(notice.textContent)) {
                  window.__kplaneLoad.sampled = true; window.__kplaneLoad.notice = notice.textContent; } })
                  .observe(notice, { attributes: true, childList: true, characterData: true, subtree: true });
                """);
        // the renderer's own accounting (CDP Performance domain): where its main thread spent the run
        browser.executeCdpCommand("Performance.enable", Map.of());
        Map<String, Double> before = metrics(browser);
        String name = "lens-load";
        String job =
                """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"%s","namespace":"default"},
                 "spec":{"completions":%d,"parallelism":%d,"backoffLimit":100,"template":{"spec":{"restartPolicy":"Never",
                   "terminationGracePeriodSeconds":0,
                   "containers":[{"name":"main","image":"busybox:1.28","command":["true"]}]}}}}
                """
                        .formatted(name, COMPLETIONS, PARALLELISM);
        long began = System.nanoTime();
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(server + "/apis/batch/v1/namespaces/default/jobs"))
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(job))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);

        List<Double> inputToFrame = new ArrayList<>();
        List<Double> keystrokeRoundTrip = new ArrayList<>();
        WebElement key = browser.findElement(By.id("follow-key"));
        String typedBefore = key.getAttribute("value");
        long deadline = System.nanoTime() + Duration.ofMinutes(15).toNanos();
        boolean done = false;
        while (!done && System.nanoTime() < deadline) {
            // t0 in the page, then a real keystroke, then the first frame after it
            browser.executeScript(
                    "window.__kplaneLoad.t0 = performance.now();"
                            + "requestAnimationFrame(() => window.__kplaneLoad.frames.push(performance.now() - window.__kplaneLoad.t0));");
            long sent = System.nanoTime();
            key.sendKeys("x"); // returns once the renderer has dispatched the key events
            keystrokeRoundTrip.add((System.nanoTime() - sent) / 1e6);
            Thread.sleep(1000); // the sampling interval of this measurement, not a wait for a condition
            done = get("/apis/batch/v1/namespaces/default/jobs/" + name)
                    .matches("(?s).*\"type\"\\s*:\\s*\"(Complete|Failed)\".*");
        }
        double wallSeconds = (System.nanoTime() - began) / 1e9;
        @SuppressWarnings("unchecked")
        Map<String, Object> load = (Map<String, Object>) browser.executeScript("return window.__kplaneLoad;");
        for (Object f : (List<?>) load.get("frames")) {
            inputToFrame.add(((Number) f).doubleValue());
        }
        List<Double> longTasks = ((List<?>) load.get("longTasks"))
                .stream().map(o -> ((Number) o).doubleValue()).toList();
        String counters = text(browser, "#counters");
        Map<String, Double> after = metrics(browser);
        System.out.printf(
                "%nlens UI under load: Job %d completions, parallelism %d, %.0f s wall, done=%s%n",
                COMPLETIONS, PARALLELISM, wallSeconds, done);
        System.out.printf(
                "  input to next frame (ms, %d samples): p50 %.1f  p95 %.1f  max %.1f%n",
                inputToFrame.size(), pct(inputToFrame, 50), pct(inputToFrame, 95), pct(inputToFrame, 100));
        System.out.printf(
                "  WebDriver keystroke round trip (ms): p50 %.1f  p95 %.1f  max %.1f%n",
                pct(keystrokeRoundTrip, 50), pct(keystrokeRoundTrip, 95), pct(keystrokeRoundTrip, 100));
        System.out.printf(
                "  renderer main thread (CDP, s of %.0f): tasks %.1f  script %.1f  layout %.1f  style %.1f%n",
                wallSeconds,
                delta(before, after, "TaskDuration"),
                delta(before, after, "ScriptDuration"),
                delta(before, after, "LayoutDuration"),
                delta(before, after, "RecalcStyleDuration"));
        System.out.printf("  JS heap used: %.1f MB%n", after.getOrDefault("JSHeapUsedSize", 0.0) / 1e6);
        System.out.printf(
                "  long tasks (>50 ms): %d, total %.0f ms, max %.0f ms%n",
                longTasks.size(),
                longTasks.stream().mapToDouble(Double::doubleValue).sum(),
                longTasks.stream().mapToDouble(Double::doubleValue).max().orElse(0));
        System.out.printf(
                "  sampling notice shown: %s  (%s)%n  DOM rows: %d%n",
                load.get("sampled"),
                load.get("notice"),
                browser.findElements(By.cssSelector(".lrow")).size());
        System.out.printf("  counters at the end: %s%n%n", counters.replace('\n', ' '));
        chromium.screenshot("lens-under-load");

        assertThat(done).as("the Job finished").isTrue();
        assertThat(inputToFrame).isNotEmpty();
        // The times are figures (printed above), not a bound: on a loaded two-core machine they move
        // with the load. Asserted: no keystroke lost under load, and a ceiling only a hung page reaches.
        assertThat(key.getAttribute("value"))
                .as("every key typed under load is in the field")
                .isEqualTo(typedBefore + "x".repeat(keystrokeRoundTrip.size()));
        assertThat(pct(inputToFrame, 100))
                .as("slowest input-to-frame (ms): only a hung page reaches this ceiling")
                .isLessThan(10_000);
        assertThat(browser.findElements(By.cssSelector(".lrow")).size())
                .as("the DOM stays capped")
                .isLessThanOrEqualTo(400);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Double> metrics(ChromeDriver browser) {
        Map<String, Object> r = browser.executeCdpCommand("Performance.getMetrics", Map.of());
        Map<String, Double> out = new java.util.HashMap<>();
        for (Object m : (List<Object>) r.get("metrics")) {
            Map<String, Object> metric = (Map<String, Object>) m;
            out.put((String) metric.get("name"), ((Number) metric.get("value")).doubleValue());
        }
        return out;
    }

    private static double delta(Map<String, Double> before, Map<String, Double> after, String name) {
        return after.getOrDefault(name, 0.0) - before.getOrDefault(name, 0.0);
    }

    private static double pct(List<Double> values, int p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
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
}
