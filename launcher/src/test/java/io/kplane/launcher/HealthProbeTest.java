package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The launcher's health probe against a real HTTP server (the JDK's, as the controllers' health endpoint). */
class HealthProbeTest {
    private final AtomicInteger status = new AtomicInteger(200);
    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/healthz", exchange -> {
            byte[] body = (status.get() == 200 ? "ok" : "waiting for the database").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.get(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private ComponentSpec spec(int port, String path) {
        return new ComponentSpec("c", "c", List.of(), Map.of(), port, path, List.of());
    }

    @Test
    void healthyOnlyWhenTheEndpointAnswers200() {
        int port = server.getAddress().getPort();
        assertThat(HealthProbe.healthy(spec(port, "/healthz"))).isTrue();
        status.set(503);
        assertThat(HealthProbe.healthy(spec(port, "/healthz"))).isFalse();
        assertThat(HealthProbe.healthy(spec(port, "/nothing-here"))).isFalse(); // 404
    }

    @Test
    void aClosedPortIsNotHealthyAndAnOpenOneIsForAPortOnlyCheck() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
            assertThat(HealthProbe.healthy(spec(closed, null))).isTrue(); // PostgreSQL: the port accepts
        }
        assertThat(HealthProbe.healthy(spec(closed, null))).isFalse();
        assertThat(HealthProbe.healthy(spec(closed, "/healthz"))).isFalse();
    }

    @Test
    void anAnswerThatIsNotHttpIsNotHealthy() throws Exception {
        assertThat(HealthProbe.statusCode(
                        new java.io.ByteArrayInputStream("SSH-2.0-OpenSSH\r\n".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo(-1);
        assertThat(HealthProbe.statusCode(new java.io.ByteArrayInputStream(
                        "HTTP/1.1 200 OK\r\n\r\nok".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo(200);
    }
}
