package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** Defaulting and validation from the api module, seen through HTTP. */
class AdmissionTest extends ApiServerHttpTest {
    static String job(String name, String restartPolicy) {
        return """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"%s"},
                 "spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"%s"}}}}
                """
                .formatted(name, restartPolicy);
    }

    @Test
    void jobDefaults() {
        Http.Response r = http.post("/apis/batch/v1/namespaces/default/jobs", job("defaults", "Never"));
        assertThat(r.code()).as(r.body()).isEqualTo(201);
        JsonNode spec = r.json().get("spec");
        String uid = r.json().at("/metadata/uid").asText();
        assertThat(spec.get("parallelism").asInt()).isEqualTo(1);
        assertThat(spec.get("completions").asInt()).isEqualTo(1);
        assertThat(spec.get("backoffLimit").asInt()).isEqualTo(6);
        assertThat(spec.get("completionMode").asText()).isEqualTo("NonIndexed");
        assertThat(spec.get("suspend").asBoolean()).isFalse();
        assertThat(spec.at("/selector/matchLabels/batch.kubernetes.io~1controller-uid")
                        .asText())
                .isEqualTo(uid);
        assertThat(spec.at("/template/metadata/labels/batch.kubernetes.io~1job-name")
                        .asText())
                .isEqualTo("defaults");
    }

    @Test
    void invalidRestartPolicyIs422WithCauses() {
        Http.Response r = http.post("/apis/batch/v1/namespaces/default/jobs", job("bad", "Always"));
        assertThat(r.code()).isEqualTo(422);
        assertThat(r.json().get("reason").asText()).isEqualTo("Invalid");
        assertThat(r.json().get("message").asText())
                .startsWith("Job.batch \"bad\" is invalid: spec.template.spec.restartPolicy: ");
        assertThat(r.json().at("/details/causes").findValuesAsText("field"))
                .contains("spec.template.spec.restartPolicy");
    }

    @Test
    void invalidNamesAndSchedules() {
        Http.Response name = http.post("/apis/batch/v1/namespaces/default/jobs", job("Not_A_Name", "Never"));
        assertThat(name.code()).isEqualTo(422);
        assertThat(name.json().at("/details/causes/0/field").asText()).isEqualTo("metadata.name");

        Http.Response cron = http.post(
                "/apis/batch/v1/namespaces/default/cronjobs",
                """
                {"metadata":{"name":"cj"},"spec":{"schedule":"not a schedule","jobTemplate":{"spec":{"template":
                 {"spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"OnFailure"}}}}}}
                """);
        assertThat(cron.code()).isEqualTo(422);
        assertThat(cron.json().at("/details/causes").findValuesAsText("field")).contains("spec.schedule");

        Http.Response pod =
                http.post("/api/v1/namespaces/default/pods", "{\"metadata\":{\"name\":\"nocontainers\"},\"spec\":{}}");
        assertThat(pod.code()).isEqualTo(422);
    }
}
