package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kubectl-lite next to the real kubectl on the same objects of a running {@link MiniCluster}:
 * {@code describe} (same sections, field names and nesting, same events), {@code get -w} rows as they
 * happen, and {@code wait --for=delete}.
 */
class KubectlParityTest {
    private static final String JOB =
            """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: %s
              labels: {app: %s}
            spec:
              backoffLimit: 2
              template:
                spec:
                  restartPolicy: %s
                  containers:
                  - name: main
                    image: busybox
                    command: [sh, -c, %s]
                    env: [{name: GREETING, value: hello}]
            """;

    private static MiniCluster cluster;
    private static CliRunner cli;
    private static RealKubectl kubectl;
    private static Path work;

    @BeforeAll
    static void start() throws Exception {
        cluster = new MiniCluster();
        cli = new CliRunner(cluster.api.url());
        kubectl = new RealKubectl(cluster.api.url());
        work = Files.createTempDirectory("parity");
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String job(String name, String restartPolicy, String script) {
        return JOB.formatted(name, name, restartPolicy, "\"" + script.replace("\"", "\\\"") + "\"");
    }

    private static void apply(String manifest) {
        CliRunner.Result r = cli.runWithStdin(manifest, "apply", "-f", "-");
        assertThat(r.code()).as(r.err()).isZero();
    }

    private static String podOf(String job) {
        return cli.run("get", "pods", "-l", "job-name=" + job, "-o", "jsonpath={.items[0].metadata.name}")
                .out();
    }

    @Test
    void describeHasKubectlsSectionsFieldsAndEvents() {
        Assumptions.assumeTrue(RealKubectl.installed(), "kubectl is not installed");
        apply(job("done", "Never", "echo done"));
        Path marker = work.resolve("flaky-once");
        apply(job(
                "flaky", "OnFailure", "if [ -f " + marker + " ]; then echo ok; else touch " + marker + "; exit 2; fi"));
        apply(
                """
                apiVersion: batch/v1
                kind: CronJob
                metadata: {name: nightly}
                spec:
                  schedule: "0 3 * * *"
                  timeZone: Etc/UTC
                  jobTemplate:
                    spec:
                      template:
                        spec:
                          containers: [{name: c, image: busybox, command: [date]}]
                          restartPolicy: OnFailure
                """);
        for (String job : List.of("done", "flaky")) {
            CliRunner.Result waited = cli.run("wait", "--for=condition=complete", "job/" + job, "--timeout=60s");
            assertThat(waited.code()).as(waited.err()).isZero();
        }
        // the Job controller's last events and status writes land after the Complete condition
        await().atMost(Duration.ofSeconds(10))
                .until(() -> kubectl.run("describe", "job", "flaky").out().contains("Completed"));

        compare("job", "done");
        compare("job", "flaky");
        compare("pod", podOf("done"));
        compare("pod", podOf("flaky"));
        compare("cronjob", "nightly");
        compare("node", MiniCluster.NODE);
    }

    private static void compare(String type, String name) {
        RealKubectl.Result real = kubectl.run("describe", type, name);
        assertThat(real.code()).as(real.err()).isZero();
        CliRunner.Result lite = cli.run("describe", type, name);
        assertThat(lite.code()).as(lite.err()).isZero();
        // "Last decisions:" is kplane's own section (the lens's persisted syncs, docs/lens.md): not in kubectl
        String liteOut = withoutLastDecisions(lite.out());
        assertThat(skeleton(liteOut))
                .as("describe %s %s\n--- kubectl:\n%s\n--- kubectl-lite:\n%s", type, name, real.out(), lite.out())
                .isEqualTo(skeleton(real.out()));
        assertThat(events(lite.out())).as("events of %s %s", type, name).isEqualTo(events(real.out()));
    }

    private static final Pattern KEY = Pattern.compile("^(\\s*)([^\\s:][^:\\t]*?):(\\s|$)");

    /**
     * Each line before Events reduced to its indentation and field name ({@code "    Image:"}); value-only
     * lines (continuations, list items, table rows) to {@code "…"}. Values, times and column widths differ
     * legitimately between two runs; the structure must not.
     */
    /** The describe text without the "Last decisions:" section (its title line and indented lines). */
    static String withoutLastDecisions(String describe) {
        StringBuilder out = new StringBuilder();
        boolean inSection = false;
        for (String line : describe.split("\n", -1)) {
            if (line.startsWith("Last decisions:")) {
                inSection = true;
                continue;
            }
            if (inSection && line.startsWith("  ")) {
                continue;
            }
            inSection = false;
            out.append(line).append('\n');
        }
        return out.substring(0, out.length() - 1);
    }

    static List<String> skeleton(String describe) {
        List<String> out = new ArrayList<>();
        for (String line : describe.split("\n")) {
            if (line.startsWith("Events:")) {
                out.add("Events:");
                break;
            }
            Matcher m = KEY.matcher(line);
            out.add(m.find() ? m.group(1) + m.group(2) + ":" : "…");
        }
        return out;
    }

    /** The Events table as "Type Reason From" per row (ages and column widths differ between runs). */
    static List<String> events(String describe) {
        List<String> rows = new ArrayList<>();
        boolean in = false;
        for (String line : describe.split("\n")) {
            if (line.startsWith("Events:")) {
                in = true;
            } else if (in
                    && line.startsWith("  ")
                    && !line.trim().startsWith("Type")
                    && !line.trim().startsWith("----")) {
                String[] cells = line.trim().split("\\s{2,}");
                rows.add(cells[0] + " " + cells[1] + " " + (cells.length > 3 ? cells[3] : ""));
            }
        }
        return rows;
    }

    @Test
    void getWatchPrintsARowPerChangeLikeKubectl() throws Exception {
        apply(job("watched", "Never", "sleep 30"));
        // the watch ends at --request-timeout, which also ends the test: long enough for a loaded machine
        CliRunner.Running lite = cli.start("get", "jobs", "watched", "-w", "--request-timeout=8s");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lite.out().toString().lines().count() >= 2);
        List<String> initial = lite.out().toString().lines().toList();
        assertThat(initial.get(0)).matches("NAME\\s+STATUS\\s+COMPLETIONS\\s+DURATION\\s+AGE");
        assertThat(initial.get(1)).matches("watched\\s+Running\\s+0/1\\s+.*");

        assertThat(cli.run("suspend", "job/watched").code()).isZero();
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        lite.out().toString().lines().anyMatch(l -> l.matches("watched\\s+Suspended\\s+0/1\\s+.*")));
        assertThat(lite.result()).isNotDone();
        assertThat(cli.run("delete", "job", "watched").code()).isZero();
        CliRunner.Result done = lite.result().get(30, TimeUnit.SECONDS);
        assertThat(done.code()).as(done.err()).isZero();
        assertThat(done.out().lines().filter(l -> l.startsWith("NAME"))).hasSize(1);
        assertThat(done.out().lines().skip(1)).allMatch(l -> l.startsWith("watched "));
    }

    @Test
    void waitForDeleteReturnsWhenTheObjectIsGone() throws Exception {
        apply(job("doomed", "Never", "sleep 30"));
        CliRunner.Running waiting = cli.start("wait", "--for=delete", "job/doomed", "--timeout=30s");
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !waiting.result()
                .isDone());
        assertThat(cli.run("delete", "job", "doomed", "--wait=false").code()).isZero();
        CliRunner.Result done = waiting.result().get(30, TimeUnit.SECONDS);
        assertThat(done.code()).as(done.err()).isZero();
        assertThat(done.out()).isEqualTo("job.batch/doomed condition met\n");

        apply(job("kept", "Never", "sleep 30"));
        CliRunner.Result timedOut = cli.run("wait", "--for=delete", "job/kept", "--timeout=1s");
        assertThat(timedOut.code()).isEqualTo(1);
        assertThat(timedOut.err()).isEqualTo("error: timed out waiting for the condition on jobs/kept\n");

        Assumptions.assumeTrue(RealKubectl.installed(), "kubectl is not installed");
        RealKubectl.Result real = kubectl.run("wait", "--for=delete", "job/kept", "--timeout=1s");
        assertThat(real.code()).isEqualTo(1);
        // (client-go may log a "very short watch" warning first when the 1 s watch ends)
        assertThat(real.err().strip().lines().reduce((a, b) -> b).orElse(""))
                .isEqualTo(timedOut.err().strip());
        RealKubectl.Result gone = kubectl.run("wait", "--for=delete", "job/doomed", "--timeout=1s");
        CliRunner.Result liteGone = cli.run("wait", "--for=delete", "job/doomed", "--timeout=1s");
        assertThat(liteGone.code()).as(gone.err()).isEqualTo(gone.code());
        assertThat(liteGone.out()).isEqualTo(gone.out());
        assertThat(liteGone.err()).isEqualTo(gone.err());
    }
}
