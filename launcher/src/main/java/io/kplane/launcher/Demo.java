package io.kplane.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code kplane up --demo}: applies a few of {@code examples/} and prints the Jobs' progress until
 * each one has finished, the way a user would watch {@code kubectl get jobs -w}.
 */
final class Demo {
    static final List<String> MANIFESTS =
            List.of("pi-job.yaml", "parallel-job.yaml", "indexed-job.yaml", "hello-cronjob.yaml");
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private final StackOptions options;
    private final PrintStream out;
    private final HttpClient http = HttpClient.newHttpClient();

    Demo(StackOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    void run(Path examples) throws IOException, InterruptedException {
        for (String file : MANIFESTS) {
            String yaml = Files.readString(examples.resolve(file));
            JsonNode manifest = Json.yamlMapper().readTree(yaml);
            String kind = manifest.path("kind").asText();
            String plural = kind.equals("CronJob") ? "cronjobs" : "jobs";
            HttpResponse<String> response = send(HttpRequest.newBuilder(
                            URI.create(options.serverUrl() + "/apis/batch/v1/namespaces/default/" + plural))
                    .header("Content-Type", "application/yaml")
                    .POST(HttpRequest.BodyPublishers.ofString(yaml)));
            String name = manifest.path("metadata").path("name").asText();
            String verdict = response.statusCode() == 201
                    ? "created"
                    : response.statusCode() == 409
                            ? "unchanged (already exists)"
                            : "failed: "
                                    + Json.tree(response.body()).path("message").asText(response.body());
            out.println(kind.toLowerCase(Locale.ROOT) + ".batch/" + name + " " + verdict);
        }
        Map<String, String> last = new LinkedHashMap<>();
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode jobs = Json.tree(send(HttpRequest.newBuilder(
                                    URI.create(options.serverUrl() + "/apis/batch/v1/namespaces/default/jobs"))
                            .GET())
                    .body());
            boolean allDone = true;
            for (JsonNode job : jobs.path("items")) {
                String name = job.path("metadata").path("name").asText();
                String line = describe(job);
                if (!line.equals(last.get(name))) {
                    out.printf("%-28s %s%n", name, line);
                    last.put(name, line);
                }
                allDone &= line.startsWith("Complete") || line.startsWith("Failed");
            }
            if (allDone && last.size() >= MANIFESTS.size() - 1) {
                out.println("demo: every Job has finished; `./kubectl-lite get jobs,pods` shows them");
                return;
            }
            Thread.sleep(1000);
        }
        out.println("demo: some Jobs are still running after " + TIMEOUT.toMinutes() + " minutes");
    }

    private static String describe(JsonNode job) {
        String state = "Running";
        for (JsonNode c : job.path("status").path("conditions")) {
            if (c.path("status").asText().equals("True")
                    && List.of("Complete", "Failed", "Suspended")
                            .contains(c.path("type").asText())) {
                state = c.path("type").asText();
            }
        }
        int completions = job.path("spec").path("completions").asInt(1);
        return String.format(
                "%-9s %d/%d succeeded, %d active, %d failed",
                state,
                job.path("status").path("succeeded").asInt(),
                completions,
                job.path("status").path("active").asInt(),
                job.path("status").path("failed").asInt());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (options.auth()) {
            String token = Files.readString(options.tokenFile()).split(",", 2)[0];
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
