package io.kplane.apiserver.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import org.junit.jupiter.api.Test;

class OpenApiV3Test {
    private final OpenApiV3 openApi = new OpenApiV3();

    @Test
    void rootListsEveryGroupVersionWithAHashedUrl() throws Exception {
        JsonNode root = Json.mapper().readTree(openApi.root());
        assertThat(root.path("paths")
                        .path("apis/batch/v1")
                        .path("serverRelativeURL")
                        .asText())
                .startsWith("/openapi/v3/apis/batch/v1?hash=");
        assertThat(root.path("paths").has("api/v1")).isTrue();
        assertThat(root.path("paths").has("apis/coordination.k8s.io/v1")).isTrue();
    }

    @Test
    void patchOperationsTellKubectlTheServerValidatesFields() {
        JsonNode doc = openApi.groupTree("apis/batch/v1");
        for (String kind : new String[] {"jobs", "cronjobs"}) {
            JsonNode patch = doc.path("paths")
                    .path("/apis/batch/v1/namespaces/{namespace}/" + kind + "/{name}")
                    .path("patch");
            assertThat(patch.path("x-kubernetes-group-version-kind")
                            .path("group")
                            .asText())
                    .isEqualTo("batch");
            assertThat(patch.path("parameters").findValuesAsText("name")).contains("fieldValidation");
            assertThat(patch.has("requestBody")).isFalse();
        }
    }

    @Test
    void schemasAreGoodEnoughForExplain() {
        JsonNode schemas = openApi.groupTree("apis/batch/v1").path("components").path("schemas");
        JsonNode job = schemas.path("io.k8s.api.batch.v1.Job");
        assertThat(job.path("x-kubernetes-group-version-kind")
                        .get(0)
                        .path("kind")
                        .asText())
                .isEqualTo("Job");
        assertThat(job.path("description").asText()).startsWith("Job represents");
        assertThat(job.at("/properties/spec/allOf/0/$ref").asText())
                .isEqualTo("#/components/schemas/io.k8s.api.batch.v1.JobSpec");
        JsonNode suspend =
                schemas.path("io.k8s.api.batch.v1.JobSpec").path("properties").path("suspend");
        assertThat(suspend.path("type").asText()).isEqualTo("boolean");
        assertThat(suspend.path("description").asText()).startsWith("suspend specifies");
        assertThat(schemas.at("/io.k8s.api.core.v1.PodSpec/properties/containers/items/allOf/0/$ref")
                        .asText())
                .endsWith("io.k8s.api.core.v1.Container");
        assertThat(schemas.at(
                                "/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta/properties/labels/additionalProperties/type")
                        .asText())
                .isEqualTo("string");
        assertThat(schemas.at("/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta/properties/creationTimestamp/format")
                        .asText())
                .isEqualTo("date-time");
    }

    @Test
    void unknownGroupIsAbsent() {
        assertThat(openApi.group("apis/apps/v1")).isEmpty();
    }

    @Test
    void documentsAreBuiltOnFirstUseOnce() {
        OpenApiV3 fresh = new OpenApiV3();
        assertThat(fresh.built()).isFalse();
        byte[] root = fresh.root();
        assertThat(fresh.built()).isTrue();
        assertThat(fresh.root()).isSameAs(root);
        assertThat(fresh.group("/apis/batch/v1"))
                .containsSame(fresh.group("apis/batch/v1").orElseThrow());
        assertThat(fresh.group("apis/nope/v1")).isEmpty();
    }
}
