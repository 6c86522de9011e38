package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.apiserver.testing.TestApiServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The objects every cluster has before the API server serves (default namespaces, their default
 * ServiceAccounts, the cluster Clock): made on a new database, completed on an existing one, and left
 * untouched where they exist.
 */
class ClusterDefaultsTest {
    private static final List<String> NAMESPACES = List.of("default", "kube-system", "kube-node-lease");

    @Test
    void aNewDatabaseGetsTheNamespacesTheirServiceAccountsAndTheClock() {
        try (TestApiServer api = TestApiServer.start()) {
            Http http = new Http(api.url());
            for (String ns : NAMESPACES) {
                assertThat(http.get("/api/v1/namespaces/" + ns).code()).as(ns).isEqualTo(200);
                assertThat(http.get("/api/v1/namespaces/" + ns + "/serviceaccounts/default")
                                .code())
                        .as(ns)
                        .isEqualTo(200);
            }
            Http.Response clock = http.get("/apis/kplane.io/v1/clocks/cluster");
            assertThat(clock.code()).as(clock.body()).isEqualTo(200);
            assertThat(clock.json().at("/spec/mode").asText()).isEqualTo("Real");
        }
    }

    @Test
    void aRestartAddsWhatIsMissingAndRewritesNothingElse() {
        try (TestApiServer api = TestApiServer.start()) {
            Http http = new Http(api.url());
            assertThat(http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"older\"}}")
                            .code())
                    .isEqualTo(201);
            // as a database of a version before ServiceAccounts: namespaces without their default one
            assertThat(http.delete("/api/v1/namespaces/older/serviceaccounts/default")
                            .code())
                    .isEqualTo(200);
            assertThat(http.delete("/api/v1/namespaces/kube-system/serviceaccounts/default")
                            .code())
                    .isEqualTo(200);
            // another ServiceAccount does not count as the namespace's default one
            assertThat(http.post("/api/v1/namespaces/older/serviceaccounts", "{\"metadata\":{\"name\":\"builder\"}}")
                            .code())
                    .isEqualTo(201);
            String defaultAccount = resourceVersion(http, "/api/v1/namespaces/default/serviceaccounts/default");
            String namespace = resourceVersion(http, "/api/v1/namespaces/kube-node-lease");
            String clock = resourceVersion(http, "/apis/kplane.io/v1/clocks/cluster");

            api.restart();

            assertThat(http.get("/api/v1/namespaces/older/serviceaccounts/default")
                            .code())
                    .isEqualTo(200);
            assertThat(http.get("/api/v1/namespaces/kube-system/serviceaccounts/default")
                            .code())
                    .isEqualTo(200);
            assertThat(resourceVersion(http, "/api/v1/namespaces/default/serviceaccounts/default"))
                    .isEqualTo(defaultAccount);
            assertThat(resourceVersion(http, "/api/v1/namespaces/kube-node-lease"))
                    .isEqualTo(namespace);
            assertThat(resourceVersion(http, "/apis/kplane.io/v1/clocks/cluster"))
                    .isEqualTo(clock);
        }
    }

    private static String resourceVersion(Http http, String path) {
        Http.Response r = http.get(path);
        assertThat(r.code()).as(path + ": " + r.body()).isEqualTo(200);
        return r.json().at("/metadata/resourceVersion").asText();
    }
}
