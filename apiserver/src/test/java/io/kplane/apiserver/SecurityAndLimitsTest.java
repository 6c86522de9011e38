package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.auth.TokenAuthenticator;
import io.kplane.apiserver.testing.TestApiServer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecurityAndLimitsTest {
    static Vertx vertx;
    static HttpServer silentKubelet;

    @BeforeAll
    static void kubelet() throws Exception {
        vertx = Vertx.vertx();
        // accepts the log request and never answers: holds one in-flight slot
        silentKubelet = vertx.createHttpServer()
                .requestHandler(req -> {})
                .listen(0, "127.0.0.1")
                .await(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    @Test
    void bearerTokensFromATokenFile() {
        TokenAuthenticator auth = TokenAuthenticator.parse(
                """
                # token,user,uid,groups
                s3cret,alice,1,"admins,devs"
                other,bob,2
                """);
        try (TestApiServer api = TestApiServer.start(o -> o.authenticator(auth))) {
            Http anonymous = new Http(api.url());
            Http.Response denied = anonymous.get("/api/v1/namespaces");
            assertThat(denied.code()).isEqualTo(401);
            assertThat(denied.json().get("reason").asText()).isEqualTo("Unauthorized");
            assertThat(anonymous.get("/healthz").code()).isEqualTo(200);
            assertThat(anonymous.get("/readyz").code()).isEqualTo(200);
            assertThat(new Http(api.url())
                            .token("wrong")
                            .get("/api/v1/namespaces")
                            .code())
                    .isEqualTo(401);
            assertThat(new Http(api.url())
                            .token("s3cret")
                            .get("/api/v1/namespaces")
                            .code())
                    .isEqualTo(200);
            assertThat(new Http(api.url()).token("other").get("/version").code())
                    .isEqualTo(200);
        }
    }

    @Test
    void servesTlsWithPemFiles(@TempDir Path dir) throws Exception {
        Path cert = dir.resolve("tls.crt");
        Path key = dir.resolve("tls.key");
        Process p = new ProcessBuilder(
                        "openssl",
                        "req",
                        "-x509",
                        "-newkey",
                        "rsa:2048",
                        "-nodes",
                        "-days",
                        "1",
                        "-subj",
                        "/CN=127.0.0.1",
                        "-addext",
                        "subjectAltName=IP:127.0.0.1",
                        "-keyout",
                        key.toString(),
                        "-out",
                        cert.toString())
                .redirectErrorStream(true)
                .start();
        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.exists(cert)).isTrue();
        try (TestApiServer api = TestApiServer.start(o -> o.tls(cert, key))) {
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, new TrustManager[] {new TrustAll()}, null);
            HttpClient client = HttpClient.newBuilder().sslContext(ssl).build();
            HttpResponse<String> r = client.send(
                    HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + api.port() + "/version"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("\"minor\":\"32\"");
        }
    }

    @Test
    void requestsBeyondTheInflightLimitGet429AndBigBodies413() throws Exception {
        try (TestApiServer api = TestApiServer.start(o -> o.maxRequestsInflight(1))) {
            Http http = new Http(api.url());
            http.post(
                    "/api/v1/nodes",
                    """
                    {"metadata":{"name":"silent"},"status":{"addresses":[{"type":"InternalIP","address":"127.0.0.1"}],
                     "daemonEndpoints":{"kubeletEndpoint":{"Port":%d}}}}"""
                            .formatted(silentKubelet.actualPort()));
            http.post(
                    "/api/v1/namespaces/default/pods",
                    "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"nodeName\":\"silent\",\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
            CompletableFuture<HttpResponse<String>> held = http.client()
                    .sendAsync(
                            HttpRequest.newBuilder(URI.create(api.url() + "/api/v1/namespaces/default/pods/p/log"))
                                    .timeout(Duration.ofSeconds(60))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> api.server().metrics().inflight().get() >= 1);
            Http.Response rejected = http.get("/api/v1/namespaces");
            assertThat(rejected.code()).isEqualTo(429);
            assertThat(rejected.header("Retry-After")).isEqualTo("1");
            assertThat(rejected.json().get("reason").asText()).isEqualTo("TooManyRequests");
            // watches are long-running and not limited
            try (WatchClient w = new WatchClient(api.url() + "/api/v1/namespaces?watch=true&timeoutSeconds=5")) {
                await().atMost(Duration.ofSeconds(10)).until(() -> w.summary().contains("ADDED default"));
            }
            held.cancel(true);
            api.restart(); // drops the held connection
            Http fresh = new Http(api.url());
            String big = "{\"metadata\":{\"name\":\"big\",\"annotations\":{\"a\":\"" + "x".repeat(3 * 1024 * 1024)
                    + "\"}},\"spec\":{}}";
            Http.Response tooLarge = fresh.post("/apis/coordination.k8s.io/v1/namespaces/default/leases", big);
            assertThat(tooLarge.code()).isEqualTo(413);
            assertThat(tooLarge.json().get("reason").asText()).isEqualTo("RequestEntityTooLarge");
        }
    }

    @Test
    void discoveryVersionAndMetrics() {
        try (TestApiServer api = TestApiServer.start()) {
            Http http = new Http(api.url());
            var version = http.get("/version").json();
            assertThat(version.get("major").asText()).isEqualTo("1");
            assertThat(version.get("minor").asText()).isEqualTo("32");
            assertThat(version.get("gitVersion").asText()).isEqualTo("v1.32.0-kplane");

            String aggregated = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                    + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
            Http.Response core = http.get("/api", aggregated);
            assertThat(core.header("Content-Type"))
                    .isEqualTo("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
            assertThat(core.json().at("/items/0/versions/0/resources").findValuesAsText("resource"))
                    .contains("pods", "namespaces", "nodes", "events");
            Http.Response groups = http.get("/apis", aggregated);
            var jobs = groups.json().at("/items/0/versions/0/resources/1");
            assertThat(groups.json().at("/items").findValuesAsText("name")).contains("batch", "coordination.k8s.io");
            assertThat(groups.body()).contains("\"shortNames\":[\"cj\"]").contains("\"categories\":[\"all\"]");
            assertThat(jobs).isNotNull();

            Http.Response legacy = http.get("/apis");
            assertThat(legacy.header("Content-Type")).isEqualTo("application/json");
            assertThat(legacy.json().get("kind").asText()).isEqualTo("APIGroupList");
            var v1 = http.get("/api/v1").json();
            assertThat(v1.get("kind").asText()).isEqualTo("APIResourceList");
            assertThat(v1.get("resources").findValuesAsText("name"))
                    .contains("pods", "pods/log", "pods/status", "pods/binding", "nodes/status");
            assertThat(http.get("/apis/batch/v1").json().get("groupVersion").asText())
                    .isEqualTo("batch/v1");
            assertThat(http.get("/apis/batch")
                            .json()
                            .at("/preferredVersion/groupVersion")
                            .asText())
                    .isEqualTo("batch/v1");

            http.get("/api/v1/namespaces/default/pods");
            String metrics = http.get("/metrics").body();
            assertThat(metrics)
                    .contains("apiserver_request_total{code=\"200\",resource=\"pods\",verb=\"list\"}")
                    .contains("apiserver_watches_open")
                    .contains("apiserver_request_duration_seconds");
            assertThat(http.get("/nope").code()).isEqualTo(404);
            assertThat(http.send("PUT", "/api/v1/namespaces/default/pods/p/log", "{}", "application/json")
                            .code())
                    .isEqualTo(405);
        }
    }

    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
