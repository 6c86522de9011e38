package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.client.time.Clock;
import io.kplane.kubelet.runtime.DockerRuntime;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl 1.32's {@code port-forward} to a pod of the docker runtime: the kubelet connects to
 * the container's IP on the engine's network (from the engine's inspect), not to the host's loopback.
 * Skipped, saying why, when {@code DOCKER_HOST} is unset or no engine answers there, or kubectl is missing.
 */
class DockerRuntimePortForwardTest {
    private static final Pattern FORWARDING = Pattern.compile("Forwarding from 127\\.0\\.0\\.1:(\\d+) -> (\\d+)");
    private static final Path KUBECTL = Path.of("/usr/bin/kubectl");
    private static KubeletFixture env;
    private static Path kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        Optional<String> unavailable = TestImages.dockerUnavailable();
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> "docker runtime test skipped: " + unavailable.get());
        Assumptions.assumeTrue(Files.isExecutable(KUBECTL), "the real kubectl is not installed at " + KUBECTL);
        String host = System.getenv("DOCKER_HOST");
        try (DockerRuntime probe = new DockerRuntime(host, Clock.system())) {
            PodLifecycleContract.image = TestImages.workingBusybox(probe.client());
        }
        env = new KubeletFixture("pf-docker-node", "docker", host);
        kubeconfig = Files.createTempFile("kubeconfig", ".yaml");
        Files.writeString(
                kubeconfig,
                """
                apiVersion: v1
                kind: Config
                clusters: [{name: k, cluster: {server: %s}}]
                users: [{name: k, user: {}}]
                contexts: [{name: k, context: {cluster: k, user: k, namespace: default}}]
                current-context: k
                """
                        .formatted(env.api.url()));
        env.create(PodManifests.shPod(
                "web",
                env.node,
                "Never",
                "mkdir -p /www && echo from the container > /www/index.html && exec httpd -f -p 8080 -h /www"));
        var pod = env.awaitPhase("web", "Running");
        String containerId = pod.status().containerStatuses().get(0).containerID();
        String address;
        try (DockerRuntime engine = new DockerRuntime(host, Clock.system())) {
            address = engine.portForwardAddress(containerId);
        }
        // httpd may still be starting in the container, and a refused connect ends kubectl's forward
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            try (Socket s = new Socket(address, 8080)) {
                return true;
            }
        });
    }

    @AfterAll
    static void stop() {
        if (env != null) {
            env.close();
        }
    }

    @Test
    void kubectlReachesTheContainersPortOnItsOwnAddress() throws Exception {
        Process kubectl = new ProcessBuilder(List.of(
                        KUBECTL.toString(), "--kubeconfig", kubeconfig.toString(), "port-forward", "pod/web", ":8080"))
                .start();
        try {
            kubectl.getOutputStream().close();
            int local = forwardingPort(kubectl);
            assertThat(get(local)).contains(" 200 OK").endsWith("\r\n\r\nfrom the container\n");
            assertThat(get(local)).endsWith("\r\n\r\nfrom the container\n");
        } finally {
            kubectl.destroyForcibly();
        }
    }

    private static int forwardingPort(Process kubectl) throws Exception {
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader out = new BufferedReader(
                            new InputStreamReader(kubectl.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = out.readLine()) != null) {
                            Matcher m = FORWARDING.matcher(line);
                            if (m.find()) {
                                port.complete(Integer.parseInt(m.group(1)));
                            }
                        }
                        port.completeExceptionally(new AssertionError("kubectl ended without forwarding: "
                                + new String(kubectl.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)));
                    } catch (IOException e) {
                        port.completeExceptionally(e);
                    }
                },
                "port-forward-output");
        reader.setDaemon(true);
        reader.start();
        return port.get(60, TimeUnit.SECONDS);
    }

    private static String get(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            out.write("GET /index.html HTTP/1.0\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
