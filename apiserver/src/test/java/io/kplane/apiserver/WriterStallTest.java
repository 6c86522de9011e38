package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.store.pg.StoreConfig;
import io.kplane.store.pg.WriterLimits;
import io.kplane.store.testing.FreezableTcpProxy;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The single writer never stalls every write without an error: a lock it needs held by another
 * session, or the network path to PostgreSQL frozen, makes writes fail with 503 within the deadline,
 * /readyz says so, overflow is refused with 429 and Retry-After, and once the fault is gone writes
 * succeed again and every acknowledged write is there.
 */
class WriterStallTest {
    /** Deadline 3 s; the server-side lock wait gives up after 1 s. */
    static final WriterLimits LIMITS = new WriterLimits(
            Duration.ofSeconds(3), 20, Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(5));

    static String pod(String name) {
        return """
                {"metadata":{"name":"%s"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}
                """
                .formatted(name);
    }

    static void assertAllPresent(Http http, List<String> acknowledged) {
        for (String name : acknowledged) {
            assertThat(http.get("/api/v1/namespaces/default/pods/" + name).code())
                    .as(name)
                    .isEqualTo(200);
        }
    }

    @Test
    void aSessionHoldingTheRevisionLockGives503sAndA429OverflowThenWritesRecover() throws Exception {
        try (TestApiServer api = TestApiServer.start(c -> c.withWriterLimits(LIMITS), o -> {})) {
            Http http = new Http(api.url());
            List<String> acknowledged = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                assertThat(http.post("/api/v1/namespaces/default/pods", pod("before-" + i))
                                .code())
                        .isEqualTo(201);
                acknowledged.add("before-" + i);
            }
            Vertx vertx = Vertx.vertx();
            try {
                PgConnection holder =
                        PgConnection.connect(vertx, api.database()).await(30, TimeUnit.SECONDS);
                holder.query("BEGIN").execute().await(10, TimeUnit.SECONDS);
                holder.query("SELECT rev FROM revision WHERE id = 1 FOR UPDATE")
                        .execute()
                        .await(10, TimeUnit.SECONDS);
                long started = System.nanoTime();
                Http.Response stuck = http.post("/api/v1/namespaces/default/pods", pod("during"));
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertThat(stuck.code()).isEqualTo(503);
                assertThat(stuck.json().get("reason").asText()).isEqualTo("ServiceUnavailable");
                assertThat(took).isLessThan(LIMITS.batchDeadline().plusSeconds(5));
                Http.Response ready = http.get("/readyz");
                assertThat(ready.code()).isEqualTo(503);
                assertThat(ready.body()).contains("[-]storage-writer");

                // many writers at once: beyond the queue bound they are refused at once with 429
                List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
                for (int i = 0; i < 80; i++) { // under the server's 100 concurrent HTTP/2 streams
                    burst.add(http.client()
                            .sendAsync(
                                    HttpRequest.newBuilder(URI.create(api.url() + "/api/v1/namespaces/default/pods"))
                                            .header("Content-Type", "application/json")
                                            .timeout(Duration.ofSeconds(60))
                                            .POST(HttpRequest.BodyPublishers.ofString(pod("burst-" + i)))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString()));
                }
                int tooMany = 0;
                for (CompletableFuture<HttpResponse<String>> f : burst) {
                    HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
                    assertThat(r.statusCode()).isIn(201, 429, 503);
                    if (r.statusCode() == 429) {
                        tooMany++;
                        assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
                    }
                }
                assertThat(tooMany).isPositive();

                holder.query("ROLLBACK").execute().await(10, TimeUnit.SECONDS);
                holder.close();
            } finally {
                vertx.close().await(30, TimeUnit.SECONDS);
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> http.get("/readyz").code() == 200);
            assertThat(http.post("/api/v1/namespaces/default/pods", pod("after"))
                            .code())
                    .isEqualTo(201);
            acknowledged.add("after");
            assertAllPresent(http, acknowledged);
        }
    }

    @Test
    void aFrozenNetworkPathFailsWritesWithinTheDeadlineAndTheyRecoverWhenItThaws() throws Exception {
        FreezableTcpProxy[] proxy = new FreezableTcpProxy[1];
        try (TestApiServer api = TestApiServer.start(
                c -> {
                    PgConnectOptions direct = c.connectOptions();
                    try {
                        if (proxy[0] == null) {
                            proxy[0] = new FreezableTcpProxy(direct.getHost(), direct.getPort());
                        }
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    return StoreConfig.of(new PgConnectOptions(direct).setPort(proxy[0].port()))
                            .withSafetyPollInterval(c.safetyPollInterval())
                            .withWriterLimits(LIMITS);
                },
                o -> {})) {
            Http http = new Http(api.url());
            List<String> acknowledged = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                assertThat(http.post("/api/v1/namespaces/default/pods", pod("net-before-" + i))
                                .code())
                        .isEqualTo(201);
                acknowledged.add("net-before-" + i);
            }
            proxy[0].freeze();
            try {
                long started = System.nanoTime();
                Http.Response stuck = http.post("/api/v1/namespaces/default/pods", pod("net-during"));
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertThat(stuck.code()).isEqualTo(503);
                assertThat(took).isLessThan(LIMITS.batchDeadline().plusSeconds(5));
                assertThat(http.get("/readyz").code()).isEqualTo(503);
            } finally {
                proxy[0].thaw();
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> http.get("/readyz").code() == 200);
            // a 503 may have come from an attempt that was applied after all: 409 then says it is there
            await().atMost(Duration.ofSeconds(30)).until(() -> List.of(201, 409)
                    .contains(http.post("/api/v1/namespaces/default/pods", pod("net-after"))
                            .code()));
            acknowledged.add("net-after");
            assertAllPresent(http, acknowledged);
        } finally {
            if (proxy[0] != null) {
                proxy[0].close();
            }
        }
    }
}
