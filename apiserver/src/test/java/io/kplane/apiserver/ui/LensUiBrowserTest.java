package io.kplane.apiserver.ui;

import static io.kplane.apiserver.ui.UiRoutesTest.lease;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.apiserver.Http;
import io.kplane.apiserver.testing.BrowserPage;
import io.kplane.apiserver.testing.HeadlessChromium;
import io.kplane.apiserver.testing.TestApiServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The page in a real headless Chromium, against a real API server and a component speaking the lens
 * contract with scripted records: rows land in their lanes in arrival order, writes coming back as
 * watch events are marked, the followed Job's state and the pause/step controls work.
 *
 * <p>The page redraws while the test reads it: every read goes through {@link BrowserPage}, which finds
 * and reads in one script (never a stale element), and every wait calls it again on each try.
 */
class LensUiBrowserTest {
    @Test
    void lanesFollowAJobKeyAndControlsReachTheComponent() throws Exception {
        HeadlessChromium.assumeInstalled();
        try (TestApiServer api = TestApiServer.start();
                ContractComponent component = new ContractComponent();
                HeadlessChromium chromium = HeadlessChromium.start()) {
            Http http = new Http(api.url());
            assertThat(http.post(
                                    "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
                                    lease("kplane-lens-job-controller", component.url()))
                            .code())
                    .isEqualTo(201);
            Http.Response job = http.post(
                    "/apis/batch/v1/namespaces/default/jobs",
                    """
                    {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi"},
                     "spec":{"completions":3,"template":{"spec":{"restartPolicy":"Never",
                       "containers":[{"name":"pi","image":"busybox","command":["true"]}]}}}}""");
            assertThat(job.code()).as(job.body()).isEqualTo(201);

            BrowserPage browser = new BrowserPage(chromium.driver());
            try {
                scenario(http, api, component, chromium, chromium.driver(), browser);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(e.getMessage() + "\n" + chromium.diagnostics(), e);
            }
        }
    }

    private static void scenario(
            Http http,
            TestApiServer api,
            ContractComponent component,
            HeadlessChromium chromium,
            ChromeDriver driver,
            BrowserPage browser)
            throws Exception {
        {
            driver.get(api.url() + "/ui/#/lanes/job-controller/job?key=default/pi");
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> text(browser, "#follow-status").contains("Running"));

            component.emit("reflector", "event", "jobs", "default/pi", "10", "\"detail\":{\"type\":\"ADDED\"}");
            component.emit("queue", "add", "jobs", "default/pi", null, null);
            component.emit(
                    "sync",
                    "sync",
                    "jobs",
                    "default/pi",
                    null,
                    """
                    "sync":{"triggers":[{"type":"ADDED","resource":"jobs","key":"default/pi","rv":"10"}],
                     "saw":{"active":0,"succeeded":0,"failed":0,"expectations":"satisfied"},
                     "decision":"pods_created","reason":"too few active pods",
                     "writes":[{"verb":"create","resource":"pods","key":"default/pi-a","rv":"11","error":null}],
                     "events":[{"type":"Normal","reason":"SuccessfulCreate","message":"Created pod: pi-a"}],
                     "durationMs":3.1,"requeueAfterMs":null,"error":null}""");
            component.emit("reflector", "event", "pods", "default/pi-a", "11", "\"detail\":{\"type\":\"ADDED\"}");
            component.emit("reflector", "event", "pods", "default/other-b", "12", "\"detail\":{\"type\":\"ADDED\"}");
            component.emit("expectations", "satisfied", "jobs", "default/pi", null, null);

            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(rows(browser))
                    .containsExactly(
                            "reflector event default/pi",
                            "queue add default/pi",
                            "sync sync default/pi pods_created",
                            "reflector event default/pi-a",
                            "expectations satisfied default/pi"));
            // the pod's watch event is the sync's own write coming back
            assertThat(text(browser, ".lrow[data-key='default/pi-a']")).contains("↩ sync #3");
            assertThat(text(browser, ".lrow[data-decision='pods_created']"))
                    .contains("create pods default/pi-a")
                    .contains("Created pod: pi-a");
            assertThat(text(browser, "[data-counter='cacheObjects']")).contains("pods 3");
            chromium.screenshot("contract-lanes");

            ObjectNode done = Json.read(
                    http.get("/apis/batch/v1/namespaces/default/jobs/pi").body(), ObjectNode.class);
            done.putObject("status")
                    .put("succeeded", 3)
                    .putArray("conditions")
                    .addObject()
                    .put("type", "Complete")
                    .put("status", "True");
            assertThat(http.put("/apis/batch/v1/namespaces/default/jobs/pi/status", Json.write(done))
                            .code())
                    .isEqualTo(200);
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> text(browser, "#follow-status").contains("Complete"));

            component.queue("[{\"key\":\"default/late\",\"state\":\"delayed\",\"dueAt\":\""
                    + java.time.Instant.now().plusSeconds(600) + "\",\"retries\":2}]");
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(text(browser, ".qitem[data-key='default/late']"))
                            .containsPattern("in \\d+\\.\\d s")
                            .contains("retry 2"));

            browser.click(By.id("pause"), Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(60)).until(() -> browser.displayed("#paused-note"));
            assertThat(browser.enabled("#step")).isTrue();
            browser.click(By.id("step"), Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(60)).until(() -> component.controlCalls.contains("step"));
            assertThat(component.controlCalls).containsExactly("pause", "step");

            driver.get(api.url() + "/ui/#/object/jobs/default/pi");
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                assertThat(text(browser, "#object-state")).contains("Complete");
                assertThat(text(browser, "#owner-tree")).contains("Job pi");
                assertThat(text(browser, "#object-syncs")).contains("pods_created");
            });
        }
    }

    /** A flood of records: the page samples what it draws, says so, keeps its row cap and still answers clicks. */
    @Test
    void underLoadThePageSamplesAndSaysSo() throws Exception {
        HeadlessChromium.assumeInstalled();
        try (TestApiServer api = TestApiServer.start();
                ContractComponent component = new ContractComponent();
                HeadlessChromium chromium = HeadlessChromium.start()) {
            Http http = new Http(api.url());
            assertThat(http.post(
                                    "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
                                    lease("kplane-lens-job-controller", component.url()))
                            .code())
                    .isEqualTo(201);
            ChromeDriver driver = chromium.driver();
            BrowserPage browser = new BrowserPage(driver);
            driver.get(api.url() + "/ui/#/lanes/job-controller/job");
            try {
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> text(browser, "#conn").contains("live"));
                java.util.concurrent.atomic.AtomicBoolean flooding =
                        new java.util.concurrent.atomic.AtomicBoolean(true);
                Thread flood = new Thread(() -> {
                    int i = 0;
                    while (flooding.get()) {
                        for (int j = 0; j < 100; j++, i++) {
                            component.emit("queue", "add", "jobs", "default/load-" + i, null, null);
                        }
                        try {
                            Thread.sleep(50); // pacing of the load generator, not a wait for a condition
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                flood.start();
                try {
                    await().atMost(Duration.ofSeconds(90))
                            .until(() -> text(browser, "#sampling").contains("Sampling"));
                    browser.click(By.id("pause"), Duration.ofSeconds(60));
                    await().atMost(Duration.ofSeconds(60)).until(() -> component.controlCalls.contains("pause"));
                    assertThat(browser.count(".lrow")).isBetween(1, 400);
                } finally {
                    flooding.set(false);
                    flood.join();
                }
                await("the notice goes once the burst is over")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> !browser.displayed("#sampling"));
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(e.getMessage() + "\n" + chromium.diagnostics(), e);
            }
        }
    }

    /** Each lane row as "stage type key [decision]", read in one script (see {@link BrowserPage}). */
    static List<String> rows(BrowserPage browser) {
        return browser.attributes(".lrow", "data-stage", "data-type", "data-key", "data-decision").stream()
                .map(LensUiBrowserTest::describe)
                .toList();
    }

    private static String describe(Map<String, String> row) {
        String decision = row.get("data-decision");
        return row.get("data-stage") + " " + row.get("data-type") + " " + row.get("data-key")
                + (decision.isEmpty() ? "" : " " + decision);
    }

    static String text(BrowserPage browser, String css) {
        return browser.text(css);
    }
}
