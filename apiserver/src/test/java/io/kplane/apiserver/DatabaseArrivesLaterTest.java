package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.store.pg.EmbeddedPostgresServer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real API server process started before its PostgreSQL: it stays up answering 503 (live, not
 * ready, the reason naming the database) and serves once a real PostgreSQL comes up at that address,
 * as kube-apiserver waits for etcd instead of exiting.
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

            postgres = EmbeddedPostgresServer.start(dir.resolve("db"), dbPort, false);

            await("ready once the database is there")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .ignoreExceptions() // refused while the waiting server hands the port over
                    .until(() -> get(base + "/readyz").statusCode() == 200);
            // the waiting server closed and the real one listens on the same port
            await("the waiting server closed").atMost(Duration.ofSeconds(30)).until(() -> Files.readString(log)
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
