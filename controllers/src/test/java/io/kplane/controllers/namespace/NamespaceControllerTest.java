package io.kplane.controllers.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.core.Namespace;
import io.kplane.api.json.Json;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The namespace controller against a real API server on PostgreSQL: the cascade, finalizers holding
 * the namespace, and creates racing the deletion from many threads.
 */
class NamespaceControllerTest {
    private static TestApiServer api;
    private static KubeClient client;
    private static SharedInformerFactory informers;
    private static NamespaceController controller;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start();
        client = KubeClient.forServer(api.url());
        informers = new SharedInformerFactory(client, Clock.system());
        controller = new NamespaceController(
                informers.informerFor(Namespace.class), client, Clock.system(), 4, Duration.ofMillis(100));
        informers.start();
        controller.start(Duration.ofSeconds(10));
    }

    @AfterAll
    static void stop() throws Exception {
        controller.stop(Duration.ofSeconds(5));
        informers.shutdown();
        api.close();
    }

    private static HttpResponse<String> send(String method, String path, String body, String contentType) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api.url() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Accept", "application/json");
        if (body != null) {
            b.header("Content-Type", contentType);
        }
        b.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> post(String path, String body) {
        return send("POST", path, body, "application/json");
    }

    private static JsonNode json(HttpResponse<String> r) {
        return Json.tree(r.body());
    }

    private static void createNamespace(String name) {
        assertThat(post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + name + "\"}}")
                        .statusCode())
                .isEqualTo(201);
    }

    private static String pod(String name, String extraMeta) {
        return "{\"metadata\":{\"name\":\"" + name + "\"" + extraMeta
                + "},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}],"
                + "\"restartPolicy\":\"Never\"}}";
    }

    private static String job(String name) {
        return "{\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\","
                + "\"image\":\"busybox\"}],\"restartPolicy\":\"Never\"}}}}";
    }

    /** Rows of {@code namespace} in the store's objects table: the ground truth, not an API view of it. */
    private static long storedObjects(String namespace) {
        Vertx vertx = Vertx.vertx();
        Pool pool = PgBuilder.pool()
                .with(new PoolOptions().setMaxSize(1))
                .connectingTo(api.database())
                .using(vertx)
                .build();
        try {
            Row row = pool.preparedQuery("SELECT count(*) FROM objects WHERE namespace = $1")
                    .execute(Tuple.of(namespace))
                    .await(30, TimeUnit.SECONDS)
                    .iterator()
                    .next();
            return row.getLong(0);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            pool.close();
            vertx.close();
        }
    }

    @Test
    void deletesEveryServedKindThenTheNamespace() {
        createNamespace("ns-all");
        assertThat(post("/api/v1/namespaces/ns-all/pods", pod("p", "")).statusCode())
                .isEqualTo(201);
        assertThat(post("/api/v1/namespaces/ns-all/configmaps", "{\"metadata\":{\"name\":\"c\"}}")
                        .statusCode())
                .isEqualTo(201);
        assertThat(post("/api/v1/namespaces/ns-all/secrets", "{\"metadata\":{\"name\":\"s\"}}")
                        .statusCode())
                .isEqualTo(201);
        assertThat(post("/apis/batch/v1/namespaces/ns-all/jobs", job("j")).statusCode())
                .isEqualTo(201);
        assertThat(post("/apis/coordination.k8s.io/v1/namespaces/ns-all/leases", "{\"metadata\":{\"name\":\"l\"}}")
                        .statusCode())
                .isEqualTo(201);
        assertThat(post(
                                "/apis/rbac.authorization.k8s.io/v1/namespaces/ns-all/roles",
                                "{\"metadata\":{\"name\":\"r\"},\"rules\":[]}")
                        .statusCode())
                .isEqualTo(201);
        assertThat(storedObjects("ns-all")).isGreaterThanOrEqualTo(7); // with the default ServiceAccount

        assertThat(send("DELETE", "/api/v1/namespaces/ns-all", null, null).statusCode())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        send("GET", "/api/v1/namespaces/ns-all", null, null).statusCode() == 404);
        assertThat(storedObjects("ns-all")).isZero();
    }

    @Test
    void anObjectWithAFinalizerHoldsTheNamespaceInTerminating() {
        createNamespace("ns-held");
        assertThat(post("/api/v1/namespaces/ns-held/pods", pod("held", ",\"finalizers\":[\"example.com/hold\"]"))
                        .statusCode())
                .isEqualTo(201);
        assertThat(send("DELETE", "/api/v1/namespaces/ns-held", null, null).statusCode())
                .isEqualTo(200);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode ns = json(send("GET", "/api/v1/namespaces/ns-held", null, null));
            assertThat(ns.at("/status/phase").asText()).isEqualTo("Terminating");
            Map<String, JsonNode> conditions = new ConcurrentHashMap<>();
            ns.at("/status/conditions")
                    .forEach(c -> conditions.put(c.path("type").asText(), c));
            assertThat(conditions.get("NamespaceFinalizersRemaining")).isNotNull();
            assertThat(conditions
                            .get("NamespaceFinalizersRemaining")
                            .path("status")
                            .asText())
                    .isEqualTo("True");
            assertThat(conditions
                            .get("NamespaceFinalizersRemaining")
                            .path("reason")
                            .asText())
                    .isEqualTo("SomeFinalizerRemain");
            assertThat(conditions
                            .get("NamespaceFinalizersRemaining")
                            .path("message")
                            .asText())
                    .isEqualTo("Some finalizers are remaining: example.com/hold in 1 resource instances");
            assertThat(conditions
                            .get("NamespaceContentRemaining")
                            .path("status")
                            .asText())
                    .isEqualTo("True");
            assertThat(conditions
                            .get("NamespaceContentRemaining")
                            .path("message")
                            .asText())
                    .isEqualTo("Some resources are remaining: pods. has 1 resource instances");
            assertThat(conditions
                            .get("NamespaceDeletionDiscoveryFailure")
                            .path("status")
                            .asText())
                    .isEqualTo("False");
            assertThat(conditions
                            .get("NamespaceDeletionDiscoveryFailure")
                            .path("reason")
                            .asText())
                    .isEqualTo("ResourcesDiscovered");
            assertThat(conditions
                            .get("NamespaceDeletionContentFailure")
                            .path("status")
                            .asText())
                    .isEqualTo("False");
            assertThat(ns.at("/spec/finalizers/0").asText()).isEqualTo("kubernetes");
        });
        // the held pod is the only content left, and it is being deleted
        JsonNode held = json(send("GET", "/api/v1/namespaces/ns-held/pods/held", null, null));
        assertThat(held.at("/metadata/deletionTimestamp").asText()).isNotEmpty();

        assertThat(send(
                                "PATCH",
                                "/api/v1/namespaces/ns-held/pods/held",
                                "{\"metadata\":{\"finalizers\":null}}",
                                "application/merge-patch+json")
                        .statusCode())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        send("GET", "/api/v1/namespaces/ns-held", null, null).statusCode() == 404);
        assertThat(storedObjects("ns-held")).isZero();
    }

    /**
     * Eight threads create pods, configmaps and jobs in a namespace while it is deleted, three times.
     * Every create is answered 201 (then its object must be cascaded) or 403 NamespaceTerminating (or,
     * once the namespace is gone, 404); afterwards the store holds no object of that namespace.
     */
    @Test
    void concurrentCreatesDuringDeletionNeverSurvive() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 3; round++) {
                String ns = "race-" + round;
                createNamespace(ns);
                AtomicInteger created = new AtomicInteger();
                Map<Integer, AtomicInteger> codes = new ConcurrentHashMap<>();
                List<String> forbiddenMessages = new ArrayList<>();
                CountDownLatch someCreated = new CountDownLatch(40);
                List<Future<?>> writers = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int thread = t;
                    writers.add(pool.submit(() -> {
                        int refusals = 0;
                        for (int i = 0; refusals < 5 && i < 10_000; i++) {
                            String name = "o-" + thread + "-" + i;
                            HttpResponse<String> r =
                                    switch (i % 3) {
                                        case 0 -> post("/api/v1/namespaces/" + ns + "/pods", pod(name, ""));
                                        case 1 -> post(
                                                "/api/v1/namespaces/" + ns + "/configmaps",
                                                "{\"metadata\":{\"name\":\"" + name + "\"}}");
                                        default -> post("/apis/batch/v1/namespaces/" + ns + "/jobs", job(name));
                                    };
                            codes.computeIfAbsent(r.statusCode(), c -> new AtomicInteger())
                                    .incrementAndGet();
                            if (r.statusCode() == 201) {
                                created.incrementAndGet();
                                someCreated.countDown();
                            } else {
                                refusals++;
                                if (r.statusCode() == 403) {
                                    synchronized (forbiddenMessages) {
                                        forbiddenMessages.add(json(r).at("/details/causes/0/reason")
                                                .asText());
                                    }
                                }
                            }
                        }
                    }));
                }
                assertThat(someCreated.await(60, TimeUnit.SECONDS)).isTrue();
                assertThat(send("DELETE", "/api/v1/namespaces/" + ns, null, null)
                                .statusCode())
                        .isEqualTo(200);
                for (Future<?> w : writers) {
                    w.get(120, TimeUnit.SECONDS);
                }
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> send("GET", "/api/v1/namespaces/" + ns, null, null)
                                        .statusCode()
                                == 404);

                assertThat(codes.keySet()).as("codes %s", codes).isSubsetOf(201, 403, 404);
                assertThat(codes.get(403)).as("codes %s", codes).isNotNull();
                assertThat(forbiddenMessages).allMatch("NamespaceTerminating"::equals);
                assertThat(created.get()).isGreaterThanOrEqualTo(40);
                assertThat(storedObjects(ns))
                        .as("objects left in %s after %s", ns, codes)
                        .isZero();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
