package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.store.pg.EmbeddedPostgresServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real API server process started before its PostgreSQL: it stays up answering 503 (live, not
 * ready, the reason naming the database) and serves once a real PostgreSQL comes up at that address,
 * as kube-apiserver waits for etcd instead of exiting; the port it listens on from the start is the
 * one that serves, and no connection is refused while it switches.
 */
class DatabaseArrivesLaterTest {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void servesOnceThePostgresItWasStartedBeforeComesUp(@TempDir Path dir) throws Exception {
        int dbPort = freePort();
        Path portFile = dir.resolve("port");
        Path log = dir.resolve("apiserver.log");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process apiserver = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        ApiServerMain.class.getName(),
                        "--port",
                        "0",
                        "--db-url",
                        "postgresql://postgres:postgres@127.0.0.1:" + dbPort + "/postgres",
                        "--write-port-file",
                        portFile.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        EmbeddedPostgresServer postgres = null;
        try {
            await("the port file")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> Files.exists(portFile)
                            && Files.readString(portFile).trim().matches("\\d+"));
            String port = Files.readString(portFile).trim();
            String base = "http://127.0.0.1:" + port;

            await("live while the database is missing")
                    .atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .until(() -> get(base + "/livez").statusCode() == 200);
            HttpResponse<String> readyz = get(base + "/readyz");
            assertThat(readyz.statusCode()).isEqualTo(503);
            assertThat(readyz.body())
                    .contains("[-]storage failed: waiting for the database 127.0.0.1:" + dbPort + "/postgres");
            HttpResponse<String> list = get(base + "/api/v1/namespaces");
            assertThat(list.statusCode()).isEqualTo(503);
            assertThat(list.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(list.body())
                    .contains("\"reason\":\"ServiceUnavailable\"")
                    .contains("\"code\":503");
            assertThat(apiserver.isAlive()).isTrue();

            // From before PostgreSQL starts until well after the API serves, a client opens a new
            // connection every few milliseconds: the switch from waiting to serving must not refuse one.
            try (SwitchProbe probe = new SwitchProbe(Integer.parseInt(port))) {
                postgres = EmbeddedPostgresServer.start(dir.resolve("db"), dbPort, false);
                await("ready once the database is there, probed throughout")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> probe.servedAfterReady() >= 20 || probe.failure() != null);
                assertThat(probe.failure())
                        .as("a probe connection during the switch")
                        .isNull();
                assertThat(probe.codes()).as("status codes seen by the probe").containsOnly(200, 503);
                assertThat(probe.codes())
                        .as("the probe saw the waiting answers, then the real ones")
                        .startsWith(503)
                        .contains(200);
            }
            await("the switch logged").atMost(Duration.ofSeconds(30)).until(() -> Files.readString(log)
                    .contains("database open: serving on port " + port));
            for (int i = 0; i < 5; i++) {
                assertThat(get(base + "/readyz").statusCode()).isEqualTo(200);
            }
            HttpResponse<String> ns = get(base + "/api/v1/namespaces/default");
            assertThat(ns.statusCode()).isEqualTo(200);
            assertThat(ns.body()).contains("\"name\":\"default\"");
            HttpResponse<String> created = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/api/v1/namespaces/default/configmaps"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"after\"}}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(created.statusCode()).isEqualTo(201);
            assertThat(apiserver.isAlive()).isTrue();
        } catch (Exception | AssertionError e) {
            throw new AssertionError(e + "\napiserver log:\n" + Files.readString(log), e);
        } finally {
            apiserver.destroy();
            if (!apiserver.waitFor(30, TimeUnit.SECONDS)) {
                apiserver.destroyForcibly();
            }
            if (postgres != null) {
                postgres.close();
            }
        }
    }

    /**
     * Opens a fresh connection to {@code /readyz} over and over (no keep-alive: a pooled connection
     * would hide a refused one), keeping every status code and the first failure.
     */
    private static final class SwitchProbe implements AutoCloseable {
        private final int port;
        private final List<Integer> codes = new CopyOnWriteArrayList<>();
        private final AtomicInteger servedAfterReady = new AtomicInteger();
        private final AtomicReference<String> failure = new AtomicReference<>();
        private volatile boolean stopped;
        private final Thread thread;

        SwitchProbe(int port) {
            this.port = port;
            this.thread = new Thread(this::run, "switch-probe");
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            while (!stopped && failure.get() == null) {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                    socket.setSoTimeout(20_000);
                    socket.getOutputStream()
                            .write("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                                    .getBytes(StandardCharsets.US_ASCII));
                    String status = new BufferedReader(
                                    new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                            .readLine();
                    if (status == null || !status.startsWith("HTTP/1.1 ")) {
                        failure.compareAndSet(null, "status line " + status);
                        return;
                    }
                    int code = Integer.parseInt(status.substring(9, 12));
                    codes.add(code);
                    if (code == 200 || servedAfterReady.get() > 0) {
                        servedAfterReady.incrementAndGet();
                    }
                } catch (IOException | RuntimeException e) {
                    failure.compareAndSet(null, e.toString());
                    return;
                }
            }
        }

        int servedAfterReady() {
            return servedAfterReady.get();
        }

        String failure() {
            return failure.get();
        }

        List<Integer> codes() {
            return List.copyOf(codes);
        }

        @Override
        public void close() throws InterruptedException {
            stopped = true;
            thread.join(30_000);
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
