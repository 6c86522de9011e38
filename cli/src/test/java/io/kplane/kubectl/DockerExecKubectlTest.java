package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.client.time.Clock;
import io.kplane.kubelet.runtime.DockerRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl 1.32's {@code exec}, {@code cp}, {@code attach} and {@code exec -it} against a
 * kubelet-sim with the docker runtime:
 * the kubelet runs the command through the engine's exec ({@code POST /containers/{id}/exec}, a hijacked
 * {@code /exec/{id}/start}), so it sees the container's own filesystem, hostname and environment.
 * Needs a Docker Engine API at {@code DOCKER_HOST} with a {@code busybox} image (CI starts Podman's with
 * {@code shared/tools/container-engine.sh}); skipped, saying why, only when there is none.
 */
class DockerExecKubectlTest {
    private static MiniCluster cluster;
    private static RealKubectl kubectl;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(RealKubectl.installed(), "the real kubectl is not installed at /usr/bin/kubectl");
        String host = System.getenv("DOCKER_HOST");
        Assumptions.assumeTrue(host != null && !host.isBlank(), "DOCKER_HOST is not set: no Docker Engine API");
        try (DockerRuntime probe = new DockerRuntime(host, Clock.system())) {
            probe.ping();
        } catch (RuntimeException e) {
            Assumptions.abort("no Docker Engine API at " + host + ": " + e.getMessage());
        }
        cluster = MiniCluster.withDockerRuntime(host);
        kubectl = new RealKubectl(cluster.api.url());
        RealKubectl.Result r = kubectl.runWithStdin(
                """
                apiVersion: v1
                kind: Pod
                metadata: {name: boxed}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: main
                    image: busybox
                    imagePullPolicy: IfNotPresent
                    command: [sleep, "3600"]
                    workingDir: /tmp
                    env: [{name: GREETING, value: hello-from-env}]
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: listener}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: main
                    image: busybox
                    imagePullPolicy: IfNotPresent
                    stdin: true
                    command: [sh, -c, 'echo started; while read line; do echo got $line; done']
                """,
                "create",
                "-f",
                "-");
        assertThat(r.code()).as(r.err()).isZero();
        cluster.awaitPhase("boxed", "Running");
        cluster.awaitPhase("listener", "Running");
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            kubectl.run("delete", "pod", "boxed", "listener", "--wait=false");
            cluster.close();
        }
    }

    @Test
    void execRunsInTheContainer() {
        RealKubectl.Result hostname = kubectl.run("exec", "boxed", "--", "cat", "/etc/hostname");
        assertThat(hostname.code()).as(hostname.err()).isZero();
        // the engine (Podman) writes /etc/hostname without a trailing newline
        assertThat(hostname.out().strip()).isEqualTo("boxed");

        RealKubectl.Result env = kubectl.run("exec", "boxed", "--", "sh", "-c", "echo $GREETING; pwd; echo err >&2");
        assertThat(env.code()).as(env.err()).isZero();
        assertThat(env.out()).isEqualTo("hello-from-env\n/tmp\n");
        assertThat(env.err()).isEqualTo("err\n");
    }

    @Test
    void theExitCodeComesBack() {
        RealKubectl.Result r = kubectl.run("exec", "boxed", "--", "sh", "-c", "echo before; exit 3");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.out()).isEqualTo("before\n");
        assertThat(r.err()).contains("command terminated with exit code 3");
    }

    @Test
    void stdinReachesTheCommandAndItsEndEndsIt() {
        RealKubectl.Result r = kubectl.runWithStdin(
                "hello\n", "exec", "-i", "boxed", "--", "sh", "-c", "read x; echo got $x $GREETING");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("got hello hello-from-env\n");
        // wc reads to the end of its input: kubectl's end of stdin must reach the engine's exec
        RealKubectl.Result wc = kubectl.runWithStdin("a\nb\nc\n", "exec", "-i", "boxed", "--", "wc", "-l");
        assertThat(wc.code()).as(wc.err()).isZero();
        assertThat(wc.out().trim()).isEqualTo("3");
    }

    @Test
    void cpCopiesIntoTheContainer() throws Exception {
        Path local = Files.createTempDirectory("docker-cp-in");
        Files.createDirectories(local.resolve("tree/sub"));
        Files.writeString(local.resolve("tree/top.txt"), "top\n");
        Files.writeString(local.resolve("tree/sub/deep.txt"), "deep\n".repeat(20_000));
        RealKubectl.Result up = kubectl.run("cp", local.resolve("tree").toString(), "boxed:/tmp/copied-in");
        assertThat(up.code()).as(up.err()).isZero();

        RealKubectl.Result top = kubectl.run("exec", "boxed", "--", "cat", "/tmp/copied-in/top.txt");
        assertThat(top.out()).as(top.err()).isEqualTo("top\n");
        RealKubectl.Result deep = kubectl.run("exec", "boxed", "--", "wc", "-c", "/tmp/copied-in/sub/deep.txt");
        assertThat(deep.out().trim()).as(deep.err()).startsWith("100000 ");
    }

    @Test
    void cpCopiesOutOfTheContainer() throws Exception {
        Path local = Files.createTempDirectory("docker-cp");
        kubectl.run("exec", "boxed", "--", "sh", "-c", "mkdir -p /tmp/tree/sub; echo deep > /tmp/tree/sub/deep.txt");
        RealKubectl.Result dir =
                kubectl.run("cp", "boxed:/tmp/tree", local.resolve("tree").toString());
        assertThat(dir.code()).as(dir.err()).isZero();
        assertThat(Files.readString(local.resolve("tree/sub/deep.txt"))).isEqualTo("deep\n");

        kubectl.run("exec", "boxed", "--", "sh", "-c", "echo made in the container > /tmp/made.txt");
        Path back = local.resolve("back.txt");
        RealKubectl.Result down = kubectl.run("cp", "boxed:/tmp/made.txt", back.toString());
        assertThat(down.code()).as(down.err()).isZero();
        assertThat(Files.readString(back)).isEqualTo("made in the container\n");
    }

    @Test
    void attachWithStdinUsesTheEnginesAttach() throws Exception {
        Process follow = kubectl.start("logs", "-f", "listener");
        LiveOutput logs = new LiveOutput(follow.getInputStream());
        logs.await("the container started", t -> t.contains("started\n"));
        follow.destroy();
        Process attach = kubectl.start("attach", "-i", "listener");
        try {
            LiveOutput out = new LiveOutput(attach.getInputStream());
            attach.getOutputStream().write("hello\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            attach.getOutputStream().flush();
            String seen = out.await("the container's answer", t -> t.contains("got hello\n"));
            assertThat(seen).as("output before the attach is not replayed").doesNotContain("started");
        } finally {
            attach.destroy();
            attach.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void execWithTerminalFollowsTheTerminalSize() throws Exception {
        Process exec = kubectl.startOnTerminal(123, 45, "exec", "-it", "boxed", "--", "sh");
        LiveOutput out = new LiveOutput(exec.getInputStream());
        exec.getOutputStream()
                .write(("for i in $(seq 50); do s=$(stty size); [ \"$s\" = \"45 123\" ] && break; sleep 0.1; done; "
                                + "echo \"size=[$s]\"; exit 7\n")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        exec.getOutputStream().flush();
        assertThat(exec.waitFor(60, java.util.concurrent.TimeUnit.SECONDS))
                .as(out.text())
                .isTrue();
        String seen = out.await("the shell's answer", t -> t.contains("size=["));
        assertThat(seen).contains("size=[45 123]");
        assertThat(exec.exitValue()).as(seen).isEqualTo(7);
    }

    @Test
    void errorsAreKubernetesOnes() {
        RealKubectl.Result wrongContainer = kubectl.run("exec", "boxed", "-c", "nope", "--", "true");
        assertThat(wrongContainer.code()).isEqualTo(1);
        assertThat(wrongContainer.err()).contains("container nope is not valid for pod boxed");

        RealKubectl.Result noSuchCommand = kubectl.run("exec", "boxed", "--", "no-such-command-here");
        assertThat(noSuchCommand.code()).isNotZero();
        assertThat(noSuchCommand.err()).contains("no-such-command-here");
    }
}
