package io.kplane.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.LocalPortForward;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * fabric8 kubernetes-client 7.9's {@code pods().withName(..).portForward(port)} with its default settings:
 * one WebSocket per local connection, subprotocol {@code v4.channel.k8s.io}, {@code ?ports=N}; the kubelet
 * announces the port on the data and error channels, then copies bytes to the pod's port (the stack's
 * kubelet runs the process runtime: the pod's {@code busybox httpd} listens on the host's loopback).
 */
class Fabric8PortForwardIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    static KubernetesClient client;
    static String ns;
    static int podPort;

    @BeforeAll
    static void startPod() throws Exception {
        Assumptions.assumeTrue(
                Files.isExecutable(Path.of("/usr/bin/busybox")) || Files.isExecutable(Path.of("/bin/busybox")),
                "busybox is not installed (.ci/run installs it)");
        client = Fabric8Clients.connect();
        ns = Fabric8Clients.createNamespace(client, "f8pf-");
        Path site = Files.createTempDirectory("f8-port-forward-site");
        Files.writeString(site.resolve("index.html"), "served by the pod\n");
        podPort = freePort();
        client.pods()
                .inNamespace(ns)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("web")
                        .endMetadata()
                        .withNewSpec()
                        .withTerminationGracePeriodSeconds(1L)
                        .addNewContainer()
                        .withName("httpd")
                        .withImage("busybox")
                        .withCommand("busybox", "httpd", "-f", "-p", "127.0.0.1:" + podPort, "-h", site.toString())
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        client.pods().inNamespace(ns).withName("web").waitUntilReady(60, TimeUnit.SECONDS);
        await().atMost(WAIT).ignoreExceptions().until(() -> {
            try (Socket s = new Socket("127.0.0.1", podPort)) {
                return true;
            }
        });
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.namespaces().withName(ns).delete();
            client.close();
        }
    }

    @Test
    void httpThroughTheForwardedPortTwoConnectionsAtOnce() throws Exception {
        try (LocalPortForward forward =
                client.pods().inNamespace(ns).withName("web").portForward(podPort)) {
            int local = forward.getLocalPort();
            CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> get(local));
            CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> get(local));
            assertThat(first.get(60, TimeUnit.SECONDS))
                    .startsWith("HTTP/1.1 200 OK")
                    .endsWith("\r\n\r\nserved by the pod\n");
            assertThat(second.get(60, TimeUnit.SECONDS)).endsWith("\r\n\r\nserved by the pod\n");
            assertThat(get(local)).endsWith("\r\n\r\nserved by the pod\n");
            assertThat(forward.errorOccurred()).isFalse();
        }
    }

    @Test
    void aRefusedPortComesBackOnTheErrorChannel() throws Exception {
        int closedPort = freePort();
        try (LocalPortForward forward =
                client.pods().inNamespace(ns).withName("web").portForward(closedPort)) {
            try (Socket s = new Socket("127.0.0.1", forward.getLocalPort())) {
                s.setSoTimeout((int) WAIT.toMillis());
                assertThat(s.getInputStream().readAllBytes()).isEmpty();
            }
            await().atMost(WAIT).until(forward::errorOccurred);
            assertThat(forward.getServerThrowables()).anySatisfy(t -> assertThat(t.getMessage())
                    .contains("error forwarding port " + closedPort + " to pod web")
                    .contains("connect: connection refused"));
        }
    }

    private static String get(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout((int) WAIT.toMillis());
            OutputStream out = s.getOutputStream();
            out.write("GET /index.html HTTP/1.0\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
