package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.apiserver.testing.TestApiServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real {@code /usr/bin/kubectl} (1.32, picked by the server's {@code minor: "32"}) as a process
 * against a real API server: the wire facts in the reference (Tables, OpenAPI v3, strategic merge,
 * protobuf bodies, field selectors) checked end to end. Skipped only where kubectl is not installed.
 */
class RealKubectlTest {
    private static final String JOB =
            """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: %s
            spec:
              backoffLimit: %d
              template:
                spec:
                  containers:
                  - name: pi
                    image: perl
                    command: ["perl", "-e", "print 1"]
                  restartPolicy: Never
            """;

    private static TestApiServer server;
    private static RealKubectl realKubectl;

    @BeforeAll
    static void start() throws IOException {
        Assumptions.assumeTrue(RealKubectl.installed(), "kubectl is not installed at " + RealKubectl.BINARY);
        server = TestApiServer.start();
        realKubectl = new RealKubectl(server.url());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static RealKubectl.Result kubectlIn(String stdin, String... args) {
        return realKubectl.runWithStdin(stdin, args);
    }

    private static RealKubectl.Result kubectl(String... args) {
        return realKubectl.run(args);
    }

    @Test
    void versionAndApiResources() {
        RealKubectl.Result version = kubectl("version");
        assertThat(version.code()).as(version.err()).isZero();
        assertThat(version.out()).contains("Server Version: v1.32");
        RealKubectl.Result resources = kubectl("api-resources");
        assertThat(resources.out())
                .containsPattern("cronjobs\\s+cj\\s+batch/v1\\s+true\\s+CronJob")
                .containsPattern("pods\\s+po\\s+v1\\s+true\\s+Pod")
                .containsPattern("services\\s+svc\\s+v1\\s+true\\s+Service");
    }

    @Test
    void clusterInfoFindsTheControlPlaneAndNoServices() {
        RealKubectl.Result info = kubectl("cluster-info");
        assertThat(info.code()).as(info.err()).isZero();
        assertThat(info.err()).isEmpty();
        assertThat(info.out()).startsWith("Kubernetes control plane is running at " + server.url() + "\n");
        assertThat(info.out().lines().filter(l -> l.contains(" is running at ")).count())
                .isEqualTo(1);
        RealKubectl.Result services = kubectl("get", "services", "-n", "kube-system");
        assertThat(services.code()).as(services.err()).isZero();
        assertThat(services.err()).contains("No resources found in kube-system namespace.");
        assertThat(kubectl("get", "svc", "kubernetes").err())
                .contains("Error from server (NotFound): services \"kubernetes\" not found");
    }

    @Test
    void applyCreateGetPatchDescribeExplainDelete() {
        RealKubectl.Result created = kubectlIn(JOB.formatted("pi", 4), "apply", "-f", "-");
        assertThat(created.out()).as(created.err()).isEqualTo("job.batch/pi created\n");
        assertThat(kubectlIn(JOB.formatted("pi", 4), "apply", "-f", "-").out()).isEqualTo("job.batch/pi unchanged\n");
        RealKubectl.Result configured = kubectlIn(JOB.formatted("pi", 5), "apply", "-f", "-");
        assertThat(configured.out()).as(configured.err()).isEqualTo("job.batch/pi configured\n");

        RealKubectl.Result ssa = kubectlIn(JOB.formatted("ssa", 1), "apply", "--server-side", "-f", "-");
        assertThat(ssa.out()).as(ssa.err()).isEqualTo("job.batch/ssa serverside-applied\n");
        RealKubectl.Result create = kubectlIn(JOB.formatted("made", 1), "create", "-f", "-");
        assertThat(create.out()).as(create.err()).isEqualTo("job.batch/made created\n");
        assertThat(kubectlIn(JOB.formatted("made", 1), "create", "-f", "-").err())
                .contains("Error from server (AlreadyExists)");

        RealKubectl.Result get = kubectl("get", "jobs");
        assertThat(get.out())
                .as(get.err())
                .startsWith("NAME")
                .contains("STATUS", "COMPLETIONS", "DURATION")
                .containsPattern("pi\\s+Running\\s+0/1");
        assertThat(kubectl("get", "jobs", "-o", "wide").out()).contains("CONTAINERS", "IMAGES", "SELECTOR");
        assertThat(kubectl("get", "job", "pi", "-o", "name").out()).isEqualTo("job.batch/pi\n");
        assertThat(kubectl("get", "job", "pi", "-o", "json").out()).contains("\"backoffLimit\": 5");
        assertThat(kubectl("get", "job", "pi", "-o", "yaml").out())
                .contains("kubectl.kubernetes.io/last-applied-configuration");
        assertThat(kubectl("get", "jobs", "--field-selector", "metadata.name=made", "-o", "name")
                        .out())
                .isEqualTo("job.batch/made\n");
        assertThat(kubectl("get", "jobs", "-A").out()).startsWith("NAMESPACE").containsPattern("default\\s+pi");

        assertThat(kubectl("patch", "job", "pi", "--type=merge", "-p", "{\"spec\":{\"backoffLimit\":3}}")
                        .out())
                .isEqualTo("job.batch/pi patched\n");
        assertThat(kubectl("patch", "job", "pi", "--type=merge", "-p", "{\"spec\":{\"backoffLimit\":3}}")
                        .out())
                .isEqualTo("job.batch/pi patched (no change)\n");
        assertThat(kubectl("patch", "job", "pi", "-p", "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}")
                        .out())
                .isEqualTo("job.batch/pi patched\n");
        assertThat(kubectl(
                                "patch",
                                "job",
                                "pi",
                                "--type=json",
                                "-p",
                                "[{\"op\":\"replace\",\"path\":\"/spec/backoffLimit\",\"value\":2}]")
                        .out())
                .isEqualTo("job.batch/pi patched\n");

        RealKubectl.Result describe = kubectl("describe", "job", "pi");
        assertThat(describe.out())
                .as(describe.err())
                .containsPattern("Name:\\s+pi")
                .contains("Pods Statuses:");

        RealKubectl.Result explain = kubectl("explain", "job.spec.suspend");
        assertThat(explain.out()).as(explain.err()).contains("suspend specifies whether the Job controller");
        assertThat(kubectl("explain", "job").out()).contains("Job represents");

        kubectlIn(JOB.formatted("del-bg", 1), "create", "-f", "-");
        assertThat(kubectl("delete", "job", "del-bg", "--cascade=background").out())
                .isEqualTo("job.batch \"del-bg\" deleted\n");
        // foreground and orphan: the object waits behind a finalizer for the garbage collector (not running here)
        for (String[] c : new String[][] {{"foreground", "foregroundDeletion"}, {"orphan", "orphan"}}) {
            String name = "del-" + c[0];
            kubectlIn(JOB.formatted(name, 1), "create", "-f", "-");
            RealKubectl.Result deleted = kubectl("delete", "job", name, "--cascade=" + c[0], "--wait=false");
            assertThat(deleted.out()).as(deleted.err()).isEqualTo("job.batch \"" + name + "\" deleted\n");
            assertThat(kubectl("get", "job", name, "-o", "jsonpath={.metadata.finalizers}")
                            .out())
                    .contains(c[1]);
        }
        assertThat(kubectl("get", "job", "nosuch").err())
                .contains("Error from server (NotFound): jobs.batch \"nosuch\" not found");
    }

    @Test
    void eachCliSeesTheOthersApplyAsUnchanged() {
        CliRunner lite = new CliRunner(server.url());
        assertThat(kubectlIn(JOB.formatted("by-kubectl", 2), "apply", "-f", "-").out())
                .isEqualTo("job.batch/by-kubectl created\n");
        assertThat(lite.runWithStdin(JOB.formatted("by-kubectl", 2), "apply", "-f", "-")
                        .out())
                .isEqualTo("job.batch/by-kubectl unchanged\n");
        assertThat(lite.runWithStdin(JOB.formatted("by-lite", 2), "apply", "-f", "-")
                        .out())
                .isEqualTo("job.batch/by-lite created\n");
        assertThat(kubectlIn(JOB.formatted("by-lite", 2), "apply", "-f", "-").out())
                .isEqualTo("job.batch/by-lite unchanged\n");
        String annotation = "jsonpath={.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}";
        assertThat(kubectl("get", "job", "by-lite", "-o", annotation).out())
                .isEqualTo(kubectl("get", "job", "by-kubectl", "-o", annotation)
                        .out()
                        .replace("by-kubectl", "by-lite"));
    }

    @Test
    void createJobFromCronJobPostsProtobuf() {
        String cron =
                """
                apiVersion: batch/v1
                kind: CronJob
                metadata: {name: hello}
                spec:
                  schedule: "*/5 * * * *"
                  jobTemplate:
                    spec:
                      backoffLimit: 0
                      template:
                        spec:
                          containers: [{name: hello, image: busybox, command: [sh, -c, date]}]
                          restartPolicy: OnFailure
                """;
        assertThat(kubectlIn(cron, "apply", "-f", "-").code()).isZero();
        assertThat(kubectl("get", "cronjobs").out()).contains("SCHEDULE").containsPattern("hello\\s+\\*/5");
        RealKubectl.Result created = kubectl("create", "job", "manual-1", "--from=cronjob/hello");
        assertThat(created.out()).as(created.err()).isEqualTo("job.batch/manual-1 created\n");
        RealKubectl.Result job = kubectl(
                "get",
                "job",
                "manual-1",
                "-o",
                "jsonpath={.metadata.ownerReferences[0].name} "
                        + "{.metadata.annotations.cronjob\\.kubernetes\\.io/instantiate} {.spec.backoffLimit}");
        assertThat(job.out()).isEqualTo("hello manual 0");
        assertThat(kubectl("describe", "cronjob", "hello").out()).containsPattern("Schedule:\\s+\\*/5");
    }

    @Test
    void waitForCompleteSetThroughTheStatusSubresource() throws Exception {
        kubectlIn(JOB.formatted("w", 1), "create", "-f", "-");
        HttpClient http = HttpClient.newHttpClient();
        String status =
                "{\"status\":{\"startTime\":\"2026-01-01T00:00:00Z\",\"completionTime\":\"2026-01-01T00:00:02Z\","
                        + "\"succeeded\":1,\"conditions\":[{\"type\":\"SuccessCriteriaMet\",\"status\":\"True\"},"
                        + "{\"type\":\"Complete\",\"status\":\"True\"}]}}";
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(server.url() + "/apis/batch/v1/namespaces/default/jobs/w/status"))
                        .method("PATCH", HttpRequest.BodyPublishers.ofString(status))
                        .header("Content-Type", "application/merge-patch+json")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        RealKubectl.Result waited = kubectl("wait", "--for=condition=complete", "job/w", "--timeout=20s");
        assertThat(waited.out()).as(waited.err()).isEqualTo("job.batch/w condition met\n");
        assertThat(kubectl("get", "job", "w").out()).containsPattern("w\\s+Complete\\s+1/1\\s+2s");
        RealKubectl.Result timedOut = kubectl("wait", "--for=condition=failed", "job/w", "--timeout=1s");
        assertThat(timedOut.code()).isEqualTo(1);
        assertThat(kubectl("get", "events").code()).isZero();
    }

    @Test
    void getWatchPrintsAChange() throws Exception {
        kubectlIn(JOB.formatted("watched", 1), "create", "-f", "-");
        Process watch = realKubectl.start("get", "jobs", "-w", "--request-timeout=20s");
        try {
            var out = new java.io.BufferedReader(
                    new java.io.InputStreamReader(watch.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).startsWith("NAME");
            String line;
            do {
                line = out.readLine();
            } while (line != null && !line.startsWith("watched"));
            kubectl("patch", "job", "watched", "--type=merge", "-p", "{\"spec\":{\"suspend\":true}}");
            String next = out.readLine();
            assertThat(next).startsWith("watched");
        } finally {
            watch.destroy();
            watch.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
