package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.util.DaemonThreads;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code logs} end to end: containers really run (kubelet-sim, process runtime), the API server proxies
 * {@code pods/log} to the kubelet, and both kubectl-lite and the real kubectl read it. Follow tests hold
 * the container at a gate file so "lines arrive while it runs" is checked without timing guesses.
 */
class LogsEndToEndTest {
    private static MiniCluster cluster;
    private static CliRunner cli;
    private static Path work;

    @BeforeAll
    static void start() throws Exception {
        cluster = new MiniCluster();
        cli = new CliRunner(cluster.api.url());
        work = Files.createTempDirectory("logs-e2e");
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String pod(String name, String restartPolicy, String... containerScripts) {
        StringBuilder yaml = new StringBuilder(
                """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s}
                spec:
                  restartPolicy: %s
                  terminationGracePeriodSeconds: 2
                  containers:
                """
                        .formatted(name, restartPolicy));
        for (int i = 0; i < containerScripts.length; i++) {
            yaml.append("  - name: ")
                    .append(i == 0 ? "main" : "side")
                    .append('\n')
                    .append("    image: busybox\n")
                    .append("    command: [sh, -c, ")
                    .append(quote(containerScripts[i]))
                    .append("]\n");
        }
        return yaml.toString();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static void create(String manifest) {
        CliRunner.Result r = cli.runWithStdin(manifest, "create", "-f", "-");
        assertThat(r.code()).as(r.err()).isZero();
    }

    @Test
    void logsTailAndTimestampsOfAFinishedPod() {
        create(pod("counter", "Never", "for i in 1 2 3; do echo line $i; done"));
        cluster.awaitPhase("counter", "Succeeded");

        assertThat(cli.run("logs", "counter").out()).isEqualTo("line 1\nline 2\nline 3\n");
        assertThat(cli.run("logs", "counter", "--tail=1").out()).isEqualTo("line 3\n");
        assertThat(cli.run("logs", "pod/counter", "--tail", "2").out()).isEqualTo("line 2\nline 3\n");
        String stamped = cli.run("logs", "counter", "--timestamps").out();
        assertThat(stamped.lines().toList())
                .hasSize(3)
                .allMatch(l -> l.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z line \\d"));

        CliRunner.Result missing = cli.run("logs", "nosuch");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err().strip()).isEqualTo("Error from server (NotFound): pods \"nosuch\" not found");
    }

    @Test
    void followPrintsLinesWhileTheContainerRunsAndEndsWithIt() throws Exception {
        Path gate = work.resolve("follow-gate");
        create(pod("follower", "Never", "echo first; while [ ! -f " + gate + " ]; do sleep 0.05; done; echo last"));
        cluster.awaitPhase("follower", "Running");

        CliRunner.Running follow = cli.start("logs", "-f", "follower");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> follow.out().toString().contains("first\n"));
        assertThat(follow.result()).isNotDone();
        assertThat(follow.out().toString()).isEqualTo("first\n");

        Files.createFile(gate);
        CliRunner.Result done = follow.result().get(20, TimeUnit.SECONDS);
        assertThat(done.code()).as(done.err()).isZero();
        assertThat(done.out()).isEqualTo("first\nlast\n");
    }

    @Test
    void containerFlagAndTheDefaultedContainerNotice() {
        create(pod("two", "Never", "echo from main", "echo from side"));
        cluster.awaitPhase("two", "Succeeded");

        CliRunner.Result defaulted = cli.run("logs", "two");
        assertThat(defaulted.out()).isEqualTo("from main\n");
        assertThat(defaulted.err()).isEqualTo("Defaulted container \"main\" out of: main, side\n");
        CliRunner.Result side = cli.run("logs", "two", "-c", "side");
        assertThat(side.out()).isEqualTo("from side\n");
        assertThat(side.err()).isEmpty();
        CliRunner.Result wrong = cli.run("logs", "two", "-c", "nope");
        assertThat(wrong.code()).isEqualTo(1);
        assertThat(wrong.err()).contains("nope");
    }

    @Test
    void previousShowsTheRunBeforeAnOnFailureRestart() {
        Path marker = work.resolve("restarted-once");
        create(pod(
                "flaky",
                "OnFailure",
                "if [ -f " + marker + " ]; then echo second run; else touch " + marker
                        + "; echo first run; exit 3; fi"));
        cluster.awaitPhase("flaky", "Succeeded");
        assertThat(cluster.pod("flaky").status().containerStatuses().get(0).restartCount())
                .isEqualTo(1);

        assertThat(cli.run("logs", "flaky").out()).isEqualTo("second run\n");
        assertThat(cli.run("logs", "flaky", "--previous").out()).isEqualTo("first run\n");
        assertThat(cli.run("logs", "flaky", "-p", "--tail=1").out()).isEqualTo("first run\n");
    }

    @Test
    void logsOfAJobFindTheJobsPod() {
        assertThat(cli.runWithStdin(CliRunner.PI_JOB, "apply", "-f", "-").out()).isEqualTo("job.batch/pi created\n");
        CliRunner.Result waited = cli.run("wait", "--for=condition=complete", "job/pi", "--timeout=60s");
        assertThat(waited.out()).as(waited.err()).isEqualTo("job.batch/pi condition met\n");

        assertThat(cli.run("logs", "job/pi").out()).isEqualTo("3.14159\n");
        assertThat(cli.run("logs", "jobs/pi", "--timestamps").out()).matches("\\S+Z 3\\.14159\n");

        Assumptions.assumeTrue(RealKubectl.installed(), "kubectl is not installed");
        RealKubectl.Result real = realKubectl().run("logs", "job/pi");
        assertThat(real.out()).as(real.err()).isEqualTo("3.14159\n");
    }

    @Test
    void realKubectlFollowsAPodUntilItsContainerEnds() throws Exception {
        Assumptions.assumeTrue(RealKubectl.installed(), "kubectl is not installed");
        Path gate = work.resolve("real-follow-gate");
        create(pod("real-follower", "Never", "echo hello; while [ ! -f " + gate + " ]; do sleep 0.05; done; echo bye"));
        cluster.awaitPhase("real-follower", "Running");

        Process kubectl = realKubectl().start("logs", "-f", "real-follower");
        kubectl.getOutputStream().close();
        var err = RealKubectl.readAll(kubectl.getErrorStream());
        StringBuffer out = new StringBuffer();
        Thread reader = DaemonThreads.newThread("logs-reader", () -> {
            try (BufferedReader lines =
                    new BufferedReader(new InputStreamReader(kubectl.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    out.append(line).append('\n');
                }
            } catch (java.io.IOException e) {
                // the process ended
            }
        });
        reader.start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> out.toString().contains("hello\n"));
            assertThat(kubectl.isAlive()).isTrue();
            Files.createFile(gate);
            assertThat(kubectl.waitFor(20, TimeUnit.SECONDS)).isTrue();
            reader.join(5_000);
            assertThat(kubectl.exitValue()).as(err.getNow("")).isZero();
            assertThat(out.toString()).isEqualTo("hello\nbye\n");
        } finally {
            kubectl.destroyForcibly();
        }
    }

    private static RealKubectl realKubectl() {
        try {
            return new RealKubectl(cluster.api.url());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
