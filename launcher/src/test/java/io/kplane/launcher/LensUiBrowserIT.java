package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.apiserver.testing.BrowserPage;
import io.kplane.apiserver.testing.HeadlessChromium;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The lens web UI in headless Debian Chromium against the real stack ({@code kplane up}: every component
 * its own process; the run's {@link SharedStack}, in this class's namespace): a Job with completions 3 followed through the job controller's lanes, then the
 * job controller paused and stepped one queue item at a time. With {@code -Dkplane.screenshots=DIR}
 * it writes the screenshots docs/learn.md shows.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LensUiBrowserIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration LONG = Duration.ofMinutes(3);

    @RegisterExtension
    static final SharedStack STACK = new SharedStack("lens-ui");

    private static String server;
    private static String ns;
    private static HeadlessChromium chromium;

    @BeforeAll
    static void startBrowser() throws Exception {
        HeadlessChromium.assumeInstalled();
        server = STACK.server();
        ns = STACK.namespace();
        await("the job controller announces its lens")
                .atMost(LONG)
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() ->
                        get("/ui/api/components").path("components").toString().contains("\"job-controller\""));
        chromium = HeadlessChromium.start();
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
    }

    @Test
    @Order(1)
    void aJobWithThreeCompletionsTravelsThroughTheLanes() throws Exception {
        ChromeDriver browser = chromium.driver();
        browser.get(server + "/ui/#/lanes/job-controller/job?key=" + ns + "/lens-demo");
        await().atMost(LONG).until(() -> text(browser, "#conn").contains("live"));
        createJob("lens-demo", 3, 3);
        List<String> rows;
        try {
            await("Complete on the page").atMost(LONG).until(() -> text(browser, "#follow-status")
                    .contains("Complete"));
            rows = rows(browser);
            int queued = first(rows, r -> r.startsWith("queue add " + ns + "/lens-demo"));
            int synced = first(rows, r -> r.startsWith("sync sync " + ns + "/lens-demo"));
            int podEvent = first(rows, r -> r.startsWith("reflector event " + ns + "/lens-demo-"));
            assertThat(queued).as("the key enters the queue: %s", rows).isGreaterThanOrEqualTo(0);
            assertThat(synced).as("then a sync: %s", rows).isGreaterThan(queued);
            assertThat(podEvent).as("then its pods' watch events: %s", rows).isGreaterThan(synced);
            chromium.screenshot("learn-lanes-job-complete");
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(e.getMessage() + "\n" + chromium.diagnostics(), e);
        }
        browser.get(server + "/ui/#/object/jobs/" + ns + "/lens-demo");
        await().atMost(LONG).untilAsserted(() -> {
            assertThat(text(browser, "#object-state")).contains("Complete");
            assertThat(browser.findElements(By.cssSelector("#owner-tree li li")))
                    .hasSize(3);
            assertThat(text(browser, "#object-syncs")).contains("job-controller");
        });
        chromium.screenshot("learn-object-job");

        // The sync's decision and the expectations come from the job controller's own report (lens).
        int created = first(rows, r -> r.startsWith("sync sync " + ns + "/lens-demo pods_created"));
        Assumptions.assumeTrue(
                created >= 0,
                "the job controller does not report its sync decisions yet "
                        + "(no sync row decided pods_created); rows seen: " + rows);
        int podEvent = first(rows, r -> r.startsWith("reflector event " + ns + "/lens-demo-"));
        assertThat(podEvent)
                .as("pods' watch events after pods_created: %s", rows)
                .isGreaterThan(created);
        int satisfied = first(rows, r -> r.startsWith("expectations satisfied " + ns + "/lens-demo"));
        Assumptions.assumeTrue(satisfied >= 0, "the job controller does not report expectations yet; rows: " + rows);
        assertThat(satisfied)
                .as("expectations satisfied after the pods' events: %s", rows)
                .isGreaterThan(podEvent);
    }

    @Test
    @Order(2)
    void pausedControllerReleasesOneQueueItemPerStep() throws Exception {
        ChromeDriver browser = chromium.driver();
        browser.get(server + "/ui/#/lanes/job-controller/job?key=" + ns + "/lens-step");
        try {
            await().atMost(LONG).until(() -> text(browser, "#conn").contains("live"));
            new BrowserPage(browser).click(By.id("pause"), LONG);
            await().atMost(LONG).until(() -> new BrowserPage(browser).displayed("#paused-note"));
            createJob("lens-step", 1, 1);
            await("the key waits in the queue").atMost(LONG).until(() -> !browser.findElements(
                            By.cssSelector(".qitem[data-key='" + ns + "/lens-step'][data-state='waiting']"))
                    .isEmpty());
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> syncRows(browser, ns + "/lens-step") == 0);
            chromium.screenshot("learn-lanes-paused");

            new BrowserPage(browser).click(By.id("step"), LONG);
            await("one sync after one step").atMost(LONG).until(() -> syncRows(browser, ns + "/lens-step") == 1);
            // its own writes re-queue the key, but a paused controller does nothing more without another step
            await().during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(15))
                    .until(() -> syncRows(browser, ns + "/lens-step") == 1);
            chromium.screenshot("learn-lanes-step");
            new BrowserPage(browser).click(By.id("resume"), LONG);
            await("resumed, the Job completes").atMost(LONG).until(() -> text(browser, "#follow-status")
                    .contains("Complete"));
            // the Job's status (a watch of the Job) and the sync rows (the controller's sync records) reach
            // the page by two streams: the row of the sync that completed it may arrive just after
            await("the syncs after the resume listed")
                    .atMost(LONG)
                    .until(() -> syncRows(browser, ns + "/lens-step") > 1);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(e.getMessage() + "\n" + chromium.diagnostics(), e);
        } finally {
            post("/ui/api/components/job-controller/controllers/job/resume", "");
        }
    }

    /**
     * The 003 seed's backoffLimit experiment, live (sleep shortened, back-offs 1 s): restartPolicy Never
     * leaves 4 failed pods and {@code failed: 4}; OnFailure runs one pod 4 times and ends with {@code failed: 1}.
     */
    @Test
    @Order(3)
    void backoffLimitExperimentOnTheObjectPage() throws Exception {
        ChromeDriver browser = chromium.driver();
        for (String policy : List.of("Never", "OnFailure")) {
            String name = "lens-backoff-" + policy.toLowerCase(Locale.ROOT);
            String job =
                    """
                    {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"%s","namespace":"%s"},
                     "spec":{"backoffLimit":3,"template":{"spec":{"restartPolicy":"%s","terminationGracePeriodSeconds":0,
                       "containers":[{"name":"main","image":"busybox:1.28","command":["sh","-c",
                         "echo Hello world! && sleep 1 && echo completed && exit 1"]}]}}}}
                    """
                            .formatted(name, ns, policy);
            HttpResponse<String> r = post("/apis/batch/v1/namespaces/" + ns + "/jobs", job);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            browser.get(server + "/ui/#/lanes/job-controller/job?key=" + ns + "/" + name);
            try {
                await(name + " fails").atMost(LONG).until(() -> text(browser, "#follow-status")
                        .contains("Failed"));
                chromium.screenshot("learn-lanes-backoff-" + policy.toLowerCase(Locale.ROOT));
                browser.get(server + "/ui/#/object/jobs/" + ns + "/" + name);
                await().atMost(LONG).untilAsserted(() -> {
                    assertThat(text(browser, "#object-state"))
                            .contains("Failed")
                            .contains("BackoffLimitExceeded");
                    assertThat(text(browser, "#object-state"))
                            .contains("active / failed")
                            .contains(policy.equals("Never") ? "0 / 4" : "/ 1");
                    assertThat(text(browser, "#object-syncs")).contains("job-controller");
                });
                chromium.screenshot("learn-object-backoff-" + policy.toLowerCase(Locale.ROOT));
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(e.getMessage() + "\n" + chromium.diagnostics(), e);
            }
        }
    }

    // --- helpers ---

    private static void createJob(String name, int completions, int parallelism) throws Exception {
        String job =
                """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"%s","namespace":"%s"},
                 "spec":{"completions":%d,"parallelism":%d,"template":{"spec":{"restartPolicy":"Never",
                   "containers":[{"name":"main","image":"busybox:1.28","command":["sh","-c","echo hello from the lens"]}]}}}}
                """
                        .formatted(name, ns, completions, parallelism);
        HttpResponse<String> r = post("/apis/batch/v1/namespaces/" + ns + "/jobs", job);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }

    private static long syncRows(ChromeDriver browser, String key) {
        return browser.findElements(By.cssSelector(".lrow[data-stage='sync'][data-key='" + key + "']"))
                .size();
    }

    /** Each lane row as "stage type key [decision]", found and read in one script (never a stale row). */
    private static List<String> rows(ChromeDriver browser) {
        List<String> out = new ArrayList<>();
        for (Map<String, String> row :
                new BrowserPage(browser).attributes(".lrow", "data-stage", "data-type", "data-key", "data-decision")) {
            String decision = row.get("data-decision");
            out.add(row.get("data-stage") + " " + row.get("data-type") + " " + row.get("data-key")
                    + (decision.isEmpty() ? "" : " " + decision));
        }
        return out;
    }

    private static int first(List<String> rows, Predicate<String> match) {
        for (int i = 0; i < rows.size(); i++) {
            if (match.test(rows.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static String text(ChromeDriver browser, String css) {
        return new BrowserPage(browser).text(css);
    }

    private static JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(server + path))
                        .timeout(Duration.ofSeconds(60))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return Json.tree(r.body());
    }

    private static HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(server + path))
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
