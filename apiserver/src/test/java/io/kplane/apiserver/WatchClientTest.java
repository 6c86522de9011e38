package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The test helper itself: a watch request that fails ends the test's wait with its cause, at once,
 * instead of leaving it to time out with "condition not met".
 */
class WatchClientTest {
    @Test
    void aRefusedConnectionFailsTheWaitWithItsCause() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        try (WatchClient w = new WatchClient("http://127.0.0.1:" + port + "/api/v1/pods?watch=true")) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> await().atMost(Duration.ofSeconds(60))
                            .until(() -> w.summary().contains("ADDED x")))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("/api/v1/pods?watch=true failed")
                    .hasCauseInstanceOf(ConnectException.class);
            // the wait ended on the failure, not on its 60 s timeout
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
            assertThat(w.failure()).isNotNull();
        }
    }

    @Test
    void aLineThatIsNotAnEventFailsTheWaitWithItsCause() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = "{\"type\":\"ADDED\",\"object\":{}}\nnot json\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        try (WatchClient w =
                new WatchClient("http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1/pods?watch=true")) {
            assertThatThrownBy(() -> await().atMost(Duration.ofSeconds(60)).until(w::ended))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("1 events read")
                    .hasCauseInstanceOf(Exception.class);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void closingTheClientIsNotAFailure() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, 0); // chunked, never ends on its own
            OutputStream out = exchange.getResponseBody();
            out.write("{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"}}}\n"
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
        });
        server.start();
        try {
            WatchClient w =
                    new WatchClient("http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1/pods?watch=true");
            await().atMost(Duration.ofSeconds(30)).until(() -> w.summary().contains("ADDED a"));
            w.close();
            await().atMost(Duration.ofSeconds(30)).until(w::ended);
            assertThat(w.failure()).isNull();
            assertThat(w.status()).isEqualTo(200);
        } finally {
            server.stop(0);
        }
    }
}
