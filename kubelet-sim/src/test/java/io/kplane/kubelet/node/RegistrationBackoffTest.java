package io.kplane.kubelet.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.kplane.client.KubeClient;
import io.kplane.client.time.FakeClock;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RegistrationBackoffTest {

    /** A real HTTP server refusing the Node create: the agent's attempts follow the back-off on its clock. */
    @Test
    void nodeAgentRetriesRegistrationWithTheBackoffCappedAtTheHeartbeat() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            if ("POST".equals(exchange.getRequestMethod())
                    && exchange.getRequestURI().getPath().equals("/api/v1/nodes")) {
                attempts.incrementAndGet();
            }
            byte[] body = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                            + "\"message\":\"not yet\",\"reason\":\"Forbidden\",\"code\":403}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(403, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        FakeClock clock = new FakeClock();
        KubeClient client =
                KubeClient.forServer("http://127.0.0.1:" + server.getAddress().getPort());
        try (NodeAgent agent = new NodeAgent(
                client, clock, "backoff-node", 10250, 10, "process:1", Duration.ofSeconds(1), Duration.ofSeconds(10))) {
            agent.start();
            assertThat(attempts.get()).isEqualTo(1);
            // attempts at 0, 100, 300, 700, 1500, 2500, 3500 ms
            long[] dueAt = {100, 300, 700, 1500, 2500, 3500};
            long now = 0;
            for (int i = 0; i < dueAt.length; i++) {
                clock.advance(Duration.ofMillis(dueAt[i] - 1 - now));
                assertThat(attempts.get()).as("before attempt %d", i + 2).isEqualTo(i + 1);
                clock.advance(Duration.ofMillis(1));
                now = dueAt[i];
                assertThat(attempts.get())
                        .as("attempt %d at %d ms", i + 2, dueAt[i])
                        .isEqualTo(i + 2);
            }
        } finally {
            server.stop(0);
        }
    }
}
