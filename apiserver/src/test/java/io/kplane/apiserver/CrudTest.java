package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class CrudTest extends ApiServerHttpTest {
    static String pod(String name) {
        return """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","labels":{"app":"web"}},
                 "spec":{"containers":[{"name":"c","image":"busybox","command":["sleep","1"]}],"restartPolicy":"Never"}}
                """
                .formatted(name);
    }

    @Test
    void createGetUpdateDelete() {
        Http.Response created = http.post("/api/v1/namespaces/default/pods", pod("p1"));
        assertThat(created.code()).as(created.body()).isEqualTo(201);
        JsonNode meta = created.json().get("metadata");
        assertThat(meta.get("uid").asText()).isNotEmpty();
        assertThat(meta.get("creationTimestamp").asText()).endsWith("Z");
        assertThat(meta.get("generation").asLong()).isEqualTo(1);
        assertThat(created.json().at("/status/phase").asText()).isEqualTo("Pending");
        String rv = meta.get("resourceVersion").asText();

        Http.Response got = http.get("/api/v1/namespaces/default/pods/p1");
        assertThat(got.code()).isEqualTo(200);
        assertThat(got.json().at("/metadata/resourceVersion").asText()).isEqualTo(rv);

        Http.Response dup = http.post("/api/v1/namespaces/default/pods", pod("p1"));
        assertThat(dup.code()).isEqualTo(409);
        assertThat(dup.json().get("reason").asText()).isEqualTo("AlreadyExists");
        assertThat(dup.json().get("message").asText()).isEqualTo("pods \"p1\" already exists");

        Http.Response deleted = http.delete("/api/v1/namespaces/default/pods/p1");
        assertThat(deleted.code()).as(deleted.body()).isEqualTo(200);
        assertThat(deleted.json().get("status").asText()).isEqualTo("Success");
        assertThat(deleted.json().at("/details/uid").asText())
                .isEqualTo(meta.get("uid").asText());
        assertThat(http.get("/api/v1/namespaces/default/pods/p1").code()).isEqualTo(404);
    }

    @Test
    void missingNamespaceIsRefused() {
        Http.Response r = http.post("/api/v1/namespaces/nope/pods", pod("x"));
        assertThat(r.code()).isEqualTo(404);
        assertThat(r.json().get("message").asText()).isEqualTo("namespaces \"nope\" not found");
    }

    @Test
    void initialNamespacesExist() {
        Http.Response r = http.get("/api/v1/namespaces");
        assertThat(r.code()).isEqualTo(200);
        assertThat(r.json().get("kind").asText()).isEqualTo("NamespaceList");
        assertThat(r.json().get("items").findValuesAsText("name"))
                .contains("default", "kube-system", "kube-node-lease");
    }
}
