package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl 1.32's {@code port-forward} against the real stack with the process runtime (the pod
 * shares the host's network, so its port is reached at 127.0.0.1): kubectl tunnels SPDY/3.1 inside a
 * WebSocket ({@code SPDY/3.1+portforward.k8s.io}); the API server splices the connection to the kubelet, which connects to the
 * pod's port per forwarded connection. The pod serves HTTP with busybox's {@code httpd}.
 */
class PortForwardKubectlTest {
    private static final Pattern FORWARDING = Pattern.compile("Forwarding from 127\\.0\\.0\\.1:(\\d+) -> (\\d+)");
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static MiniCluster cluster;
    private static RealKubectl kubectl;
    private static int podPort;
    private static String bigFile;
    private final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(RealKubectl.installed(), "the real kubectl is not installed at /usr/bin/kubectl");
        Assumptions.assumeTrue(
                Files.isExecutable(Path.of("/usr/bin/busybox")) || Files.isExecutable(Path.of("/bin/busybox")),
                "busybox is not installed (.ci/run installs it)");
        cluster = new MiniCluster();
        kubectl = new RealKubectl(cluster.api.url());
        Path site = Files.createTempDirectory("port-forward-site");
        Files.writeString(site.resolve("index.html"), "hello through the tunnel\n");
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 40_000; i++) {
            big.append("line ").append(i).append('\n');
        }
        bigFile = big.toString();
        Files.writeString(site.resolve("big.txt"), bigFile);
        podPort = freePort();
        RealKubectl.Result r = kubectl.runWithStdin(
                """
                apiVersion: v1
                kind: Pod
                metadata: {name: web}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: httpd
                    image: busybox
                    command: [busybox, httpd, -f, -p, "127.0.0.1:%d", -h, %s]
                """
                        .formatted(podPort, site),
                "create",
                "-f",
                "-");
        assertThat(r.code()).as(r.err()).isZero();
        cluster.awaitPhase("web", "Running");
        await().atMost(WAIT).ignoreExceptions().until(() -> {
            try (Socket s = new Socket("127.0.0.1", podPort)) {
                return true;
            }
        });
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void endForwards() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void anHttpRequestGoesThroughTheForwardedPort() throws Exception {
        Forward forward = portForward(Map.of(), "pod/web", ":" + podPort);
        String response = get(forward.localPort, "/index.html");
        assertThat(response).startsWith("HTTP/1.1 200 OK").endsWith("\r\n\r\nhello through the tunnel\n");
        // a second connection through the same forward, after the first one ended
        assertThat(get(forward.localPort, "/index.html")).endsWith("hello through the tunnel\n");
    }

    @Test
    void concurrentConnectionsEachGetTheirOwnStreams() throws Exception {
        Forward forward = portForward(Map.of(), "web", ":" + podPort);
        CompletableFuture<String> big =
                CompletableFuture.supplyAsync(() -> getUnchecked(forward.localPort, "/big.txt"));
        CompletableFuture<String> small =
                CompletableFuture.supplyAsync(() -> getUnchecked(forward.localPort, "/index.html"));
        assertThat(small.get(60, TimeUnit.SECONDS)).endsWith("\r\n\r\nhello through the tunnel\n");
        assertThat(big.get(60, TimeUnit.SECONDS)).endsWith("\r\n\r\n" + bigFile);
    }

    @Test
    void aRefusedConnectionIsReportedAsKubernetesDoes() throws Exception {
        int closedPort = freePort();
        Forward forward = portForward(Map.of(), "pod/web", ":" + closedPort);
        try (Socket s = new Socket("127.0.0.1", forward.localPort)) {
            s.setSoTimeout((int) WAIT.toMillis());
            assertThat(s.getInputStream().readAllBytes()).isEmpty();
        }
        // kubectl prints the kubelet's error and ends the forward ("lost connection to pod")
        assertThat(forward.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String err = forward.stderr.get(10, TimeUnit.SECONDS);
        assertThat(err)
                .contains("error forwarding port " + closedPort + " to pod web, uid ")
                .contains("dial tcp4 127.0.0.1:" + closedPort + ": connect: connection refused")
                .contains("lost connection to pod");
        assertThat(forward.process.exitValue()).isNotZero();
    }

    /**
     * kubectl's forced plain-SPDY fallback ({@code POST} with {@code Upgrade: SPDY/3.1}) is not served: it gets a
     * finished 400 at once (docs/api.md), so kubectl prints it on one line and exits 1 instead of waiting. The
     * same for exec ({@code KUBECTL_REMOTE_COMMAND_WEBSOCKETS=false}), on the same pod.
     */
    @Test
    void aForcedSpdyFallbackFailsAtOnceWithTheReason() throws Exception {
        Process forward = kubectl.start(
                Map.of("KUBECTL_PORT_FORWARD_WEBSOCKETS", "false"), "port-forward", "pod/web", ":" + podPort);
        started.add(forward);
        forward.getOutputStream().close();
        CompletableFuture<String> forwardErr = RealKubectl.readAll(forward.getErrorStream());
        assertThat(forward.waitFor(30, TimeUnit.SECONDS))
                .as("kubectl port-forward must end, not hang")
                .isTrue();
        assertThat(forward.exitValue()).isEqualTo(1);
        assertThat(forwardErr.get(10, TimeUnit.SECONDS).trim())
                .isEqualTo("error: error upgrading connection: this kubelet serves port forwarding over WebSocket "
                        + "(SPDY/3.1+portforward.k8s.io, v4.channel.k8s.io), not over SPDY/3.1");

        Process exec =
                kubectl.start(Map.of("KUBECTL_REMOTE_COMMAND_WEBSOCKETS", "false"), "exec", "web", "--", "echo", "hi");
        started.add(exec);
        exec.getOutputStream().close();
        CompletableFuture<String> execErr = RealKubectl.readAll(exec.getErrorStream());
        assertThat(exec.waitFor(30, TimeUnit.SECONDS))
                .as("kubectl exec must end, not hang")
                .isTrue();
        assertThat(exec.exitValue()).isEqualTo(1);
        assertThat(execErr.get(10, TimeUnit.SECONDS).trim())
                .isEqualTo("Error from server (BadRequest): this kubelet serves exec over WebSocket "
                        + "(v5.channel.k8s.io, v4.channel.k8s.io), not over SPDY/3.1");
    }

    @Test
    void aMissingPodIsKubernetesNotFound() {
        RealKubectl.Result r = kubectl.run("port-forward", "pod/ghost", ":80");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("pods \"ghost\" not found");
    }

    private record Forward(Process process, int localPort, CompletableFuture<String> stderr) {}

    /** Starts kubectl port-forward and waits for its {@code Forwarding from 127.0.0.1:N} line. */
    private Forward portForward(Map<String, String> env, String... target) throws Exception {
        List<String> args = new ArrayList<>(List.of("port-forward"));
        args.addAll(List.of(target));
        Process p = kubectl.start(env, args.toArray(String[]::new));
        started.add(p);
        p.getOutputStream().close();
        CompletableFuture<String> stderr = RealKubectl.readAll(p.getErrorStream());
        CompletableFuture<Integer> localPort = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader out =
                            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = out.readLine()) != null) {
                            Matcher m = FORWARDING.matcher(line);
                            if (m.find()) {
                                localPort.complete(Integer.parseInt(m.group(1)));
                            }
                        }
                        localPort.completeExceptionally(new AssertionError("kubectl ended without forwarding"));
                    } catch (IOException e) {
                        localPort.completeExceptionally(e);
                    }
                },
                "port-forward-output");
        reader.setDaemon(true);
        reader.start();
        try {
            return new Forward(p, localPort.get(60, TimeUnit.SECONDS), stderr);
        } catch (Exception e) {
            p.destroyForcibly();
            throw new AssertionError("kubectl port-forward did not start: " + stderr.getNow(""), e);
        }
    }

    /** An HTTP/1.0 GET on a fresh connection; the whole response (busybox httpd closes after it). */
    private static String get(int port, String path) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout((int) WAIT.toMillis());
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.0\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String getUnchecked(int port, String path) {
        try {
            return get(port, path);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
