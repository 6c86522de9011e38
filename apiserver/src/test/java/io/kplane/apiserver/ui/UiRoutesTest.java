package io.kplane.apiserver.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.Http;
import io.kplane.apiserver.auth.TokenAuthenticator;
import io.kplane.apiserver.testing.TestApiServer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The /ui routes against a real API server (real PostgreSQL) and a real HTTP component that serves
 * the lens contract: static files from the jar, discovery through announcement Leases, the proxy
 * (snapshot, control, SSE streamed chunk by chunk), and the API's own authentication.
 */
class UiRoutesTest {
    static Vertx vertx;
    static HttpServer component;
    static final AtomicReference<HttpServerResponse> openStream = new AtomicReference<>();
    static final AtomicReference<String> lastControl = new AtomicReference<>();
    static final AtomicReference<String> lastStreamQuery = new AtomicReference<>();
    static final CompletableFuture<Void> streamClosed = new CompletableFuture<>();

    @BeforeAll
    static void startComponent() throws Exception {
        vertx = Vertx.vertx();
        component = vertx.createHttpServer()
                .requestHandler(req -> {
                    switch (req.path()) {
                        case "/lens/snapshot" -> req.response()
                                .putHeader("Content-Type", "application/json")
                                .end(
                                        "{\"component\":\"job-controller\",\"seq\":7,\"sampling\":false,\"controllers\":[],\"records\":[]}");
                        case "/lens/stream" -> {
                            lastStreamQuery.set(req.query());
                            HttpServerResponse r =
                                    req.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
                            r.write(
                                    "id: 8\ndata: {\"seq\":8,\"stage\":\"queue\",\"type\":\"add\",\"key\":\"default/pi\"}\n\n");
                            r.closeHandler(v -> streamClosed.complete(null));
                            openStream.set(r);
                        }
                        case "/lens/controllers/job/step" -> {
                            lastControl.set(req.method() + " " + req.path());
                            req.response()
                                    .putHeader("Content-Type", "application/json")
                                    .end("{\"name\":\"job\",\"paused\":true,\"stepsPending\":1}");
                        }
                        default -> req.response().setStatusCode(404).end();
                    }
                })
                .listen(0, "127.0.0.1")
                .await(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    static String lease(String name, String endpoint) {
        return """
                {"apiVersion":"coordination.k8s.io/v1","kind":"Lease",
                 "metadata":{"name":"%s","namespace":"kube-system","annotations":{"lens.kplane.io/endpoint":"%s"}},
                 "spec":{"holderIdentity":"x","leaseDurationSeconds":3600,"renewTime":"%s"}}
                """
                .formatted(
                        name,
                        endpoint,
                        java.time.Instant.now().toString().replace("Z", "000Z").replaceAll("\\.(\\d{6})\\d*Z", ".$1Z"));
    }

    @Test
    void servesThePageAndProxiesAnnouncedComponents() throws Exception {
        try (TestApiServer api = TestApiServer.start()) {
            Http http = new Http(api.url());
            Http.Response page = http.get("/ui/", "text/html");
            assertThat(page.code()).isEqualTo(200);
            assertThat(page.header("Content-Type")).startsWith("text/html");
            assertThat(page.body()).contains("<script type=\"module\" src=\"js/main.js\">");
            assertThat(http.get("/ui/js/lanes.js", "*/*").header("Content-Type"))
                    .contains("javascript");
            assertThat(http.get("/ui/nope.js", "*/*").code()).isEqualTo(404);

            assertThat(http.get("/ui/api/components").json().path("components")).isEmpty();
            String url = "http://127.0.0.1:" + component.actualPort();
            assertThat(http.post(
                                    "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
                                    lease("kplane-lens-job-controller", url))
                            .code())
                    .isEqualTo(201);
            // a Lease without the prefix or the annotation is not a lens
            assertThat(http.post(
                                    "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
                                    lease("job-controller", url))
                            .code())
                    .isEqualTo(201);

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                var list = http.get("/ui/api/components").json().path("components");
                assertThat(list).hasSize(1);
                assertThat(list.get(0).path("name").asText()).isEqualTo("job-controller");
                assertThat(list.get(0).path("endpoint").asText()).isEqualTo(url);
                assertThat(list.get(0).path("stale").asBoolean()).isFalse();
            });
            assertThat(http.get("/ui/api/components/job-controller/snapshot")
                            .json()
                            .path("seq")
                            .asInt())
                    .isEqualTo(7);

            Http.Response step = http.post("/ui/api/components/job-controller/controllers/job/step", "");
            assertThat(step.code()).isEqualTo(200);
            assertThat(step.json().path("stepsPending").asInt()).isEqualTo(1);
            assertThat(lastControl.get()).isEqualTo("POST /lens/controllers/job/step");
            assertThat(http.get("/ui/api/components/job-controller/controllers/job/step")
                            .code())
                    .isEqualTo(405);

            Http.Response unknown = http.get("/ui/api/components/nosuch/snapshot");
            assertThat(unknown.code()).isEqualTo(404);
            assertThat(unknown.json().path("message").asText()).contains("kplane-lens-nosuch");
            assertThat(http.get("/ui/api/components/job-controller/metrics").code())
                    .isEqualTo(404);
            assertThat(http.get("/ui/api/components/job-controller/stream?since=abc")
                            .code())
                    .isEqualTo(400);

            // The stream is passed through as it is written: the first event arrives while the
            // component still holds the response open, and closing the browser side closes the component's.
            HttpResponse<java.io.InputStream> stream = http.client()
                    .send(
                            HttpRequest.newBuilder(
                                            URI.create(api.url() + "/ui/api/components/job-controller/stream?since=7"))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofInputStream());
            assertThat(stream.statusCode()).isEqualTo(200);
            assertThat(stream.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
            BufferedReader reader = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8));
            assertThat(reader.readLine()).isEqualTo("id: 8");
            assertThat(reader.readLine()).contains("\"key\":\"default/pi\"");
            assertThat(lastStreamQuery.get()).isEqualTo("since=7");
            await().atMost(Duration.ofSeconds(30)).until(() -> openStream.get() != null);
            openStream.get().write("id: 9\ndata: {\"seq\":9}\n\n");
            assertThat(reader.readLine()).isEmpty();
            assertThat(reader.readLine()).isEqualTo("id: 9");
            stream.body().close();
            streamClosed.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void sameAuthenticationAsTheApi() throws Exception {
        TokenAuthenticator auth = TokenAuthenticator.parse("s3cret,alice,1\n");
        try (TestApiServer api = TestApiServer.start(o -> o.authenticator(auth))) {
            Http anonymous = new Http(api.url());
            // the page is static code without cluster data; it asks for the token itself
            assertThat(anonymous.get("/ui/", "text/html").code()).isEqualTo(200);
            assertThat(anonymous.get("/ui/js/api.js", "*/*").code()).isEqualTo(200);
            Http.Response denied = anonymous.get("/ui/api/components");
            assertThat(denied.code()).isEqualTo(401);
            assertThat(denied.json().path("reason").asText()).isEqualTo("Unauthorized");
            assertThat(anonymous.get("/ui/api/components/job-controller/stream").code())
                    .isEqualTo(401);
            assertThat(new Http(api.url())
                            .token("wrong")
                            .get("/ui/api/components")
                            .code())
                    .isEqualTo(401);
            Http alice = new Http(api.url()).token("s3cret");
            assertThat(alice.post(
                                    "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
                                    lease("kplane-lens-job-controller", "http://127.0.0.1:" + component.actualPort()))
                            .code())
                    .isEqualTo(201);
            assertThat(alice.get("/ui/api/components").json().path("components"))
                    .hasSize(1);
            assertThat(alice.get("/ui/api/components/job-controller/snapshot").code())
                    .isEqualTo(200);
        }
    }

    @Test
    void anUnreachableComponentIsAClearServiceUnavailable() throws Exception {
        try (TestApiServer api = TestApiServer.start()) {
            Http http = new Http(api.url());
            int closedPort;
            try (var s = new java.net.ServerSocket(0)) {
                closedPort = s.getLocalPort();
            }
            http.post(
                    "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
                    lease("kplane-lens-kubelet-node-1", "http://127.0.0.1:" + closedPort));
            Http.Response r = http.get("/ui/api/components/kubelet-node-1/snapshot");
            assertThat(r.code()).isEqualTo(503);
            assertThat(r.json().path("message").asText())
                    .contains("kubelet-node-1")
                    .contains("unreachable");
            assertThat(http.get("/ui/api/components")
                            .json()
                            .at("/components/0/kind")
                            .asText())
                    .isEqualTo("kubelet");
        }
    }
}
