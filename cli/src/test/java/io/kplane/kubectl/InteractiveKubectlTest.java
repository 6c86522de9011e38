package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl 1.32's interactive commands against the real stack with the process runtime:
 * {@code attach} (the container's own streams, nothing replayed, stdin when the spec asks for it),
 * {@code run -i --rm}, and {@code exec -it} on a terminal (util-linux {@code script} gives kubectl a
 * pseudo-terminal, so it switches to raw mode and sends its size on the resize channel, exactly as in a
 * user's shell; chosen over a Java pty library because util-linux is already needed and it drives the
 * real binary unchanged).
 */
class InteractiveKubectlTest {
    private static final Pattern TICK = Pattern.compile("tick (\\d+)");
    private static MiniCluster cluster;
    private static RealKubectl kubectl;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(RealKubectl.installed(), "the real kubectl is not installed at /usr/bin/kubectl");
        cluster = new MiniCluster();
        kubectl = new RealKubectl(cluster.api.url());
        RealKubectl.Result r = kubectl.runWithStdin(
                """
                apiVersion: v1
                kind: Pod
                metadata: {name: talker}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: main
                    image: busybox
                    command: [sh, -c, 'i=0; while true; do echo tick $i; i=$((i+1)); sleep 0.2; done']
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: reader}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: main
                    image: busybox
                    stdin: true
                    command: [sh, -c, 'while read line; do echo got $line; done; echo stdin ended']
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: shell}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: main
                    image: busybox
                    command: [sleep, "3600"]
                """,
                "create",
                "-f",
                "-");
        assertThat(r.code()).as(r.err()).isZero();
        cluster.awaitPhase("talker", "Running");
        cluster.awaitPhase("reader", "Running");
        cluster.awaitPhase("shell", "Running");
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void attachShowsNewOutputOnly() throws Exception {
        Process follow = kubectl.start("logs", "-f", "talker");
        LiveOutput logs = new LiveOutput(follow.getInputStream());
        logs.await("three ticks logged", t -> t.contains("tick 2\n"));
        follow.destroy();
        int loggedBefore = (int) kubectl.run("logs", "talker").out().lines().count();
        Process attach = kubectl.start("attach", "talker");
        try {
            LiveOutput out = new LiveOutput(attach.getInputStream());
            String seen = out.await(
                    "two ticks through attach", t -> TICK.matcher(t).results().count() >= 2);
            Matcher first = TICK.matcher(seen);
            assertThat(first.find()).isTrue();
            // what the container wrote before the attach is not replayed
            assertThat(Integer.parseInt(first.group(1))).isGreaterThanOrEqualTo(loggedBefore);
        } finally {
            attach.destroy();
            attach.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void attachWithStdinFeedsTheContainer() throws Exception {
        Process attach = kubectl.start("attach", "-i", "reader");
        try {
            LiveOutput out = new LiveOutput(attach.getInputStream());
            attach.getOutputStream().write("hello\n".getBytes(StandardCharsets.UTF_8));
            attach.getOutputStream().flush();
            out.await("the container's answer", t -> t.contains("got hello\n"));
        } finally {
            attach.destroy();
            attach.waitFor(10, TimeUnit.SECONDS);
        }
        // the container's stdin stays open for the next attach (stdinOnce is not set)
        Process again = kubectl.start("attach", "-i", "reader");
        try {
            LiveOutput out = new LiveOutput(again.getInputStream());
            again.getOutputStream().write("again\n".getBytes(StandardCharsets.UTF_8));
            again.getOutputStream().flush();
            String seen = out.await("the second answer", t -> t.contains("got again\n"));
            assertThat(seen).doesNotContain("got hello").doesNotContain("stdin ended");
        } finally {
            again.destroy();
            again.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void attachErrorsAreKubernetesOnes() {
        RealKubectl.Result wrongContainer = kubectl.run("attach", "talker", "-c", "nope");
        assertThat(wrongContainer.code()).isEqualTo(1);
        assertThat(wrongContainer.err()).contains("container nope not found in pod talker");
        RealKubectl.Result missingPod = kubectl.run("attach", "ghost");
        assertThat(missingPod.code()).isEqualTo(1);
        assertThat(missingPod.err()).contains("pods \"ghost\" not found");
    }

    @Test
    void runInteractiveWithRmAttachesAndCleansUp() {
        RealKubectl.Result r = kubectl.runWithStdin(
                "hello\n",
                "run",
                "-i",
                "--rm",
                "--restart=Never",
                "runner",
                "--image=busybox",
                "--command",
                "--",
                "sh",
                "-c",
                "read x; echo got $x");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("got hello\n").contains("pod \"runner\" deleted");
    }

    @Test
    void execWithTerminalIsRawAndFollowsTheTerminalSize() throws Exception {
        Process exec = kubectl.startOnTerminal(123, 45, "exec", "-it", "shell", "--", "sh");
        LiveOutput out = new LiveOutput(exec.getInputStream());
        // the first size arrives on channel 4 as the session opens; poll in the shell until it is applied
        exec.getOutputStream()
                .write(("for i in $(seq 50); do s=$(stty size); [ \"$s\" = \"45 123\" ] && break; sleep 0.1; done; "
                                + "echo \"size=[$s] tty=[$(tty)]\"; exit 7\n")
                        .getBytes(StandardCharsets.UTF_8));
        exec.getOutputStream().flush();
        assertThat(exec.waitFor(60, TimeUnit.SECONDS)).as(out.text()).isTrue();
        String seen = out.await("the shell's answer", t -> t.contains("tty=["));
        assertThat(seen).contains("size=[45 123]").containsPattern("tty=\\[/dev/pts/\\d+\\]");
        assertThat(exec.exitValue()).as(seen).isEqualTo(7);
    }
}
