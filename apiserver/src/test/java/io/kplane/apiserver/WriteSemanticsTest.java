package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class WriteSemanticsTest extends ApiServerHttpTest {
    static final String JOBS = "/apis/batch/v1/namespaces/default/jobs";

    static String job(String name) {
        return """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"%s"},
                 "spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"Never"}}},
                 "status":{"succeeded":5}}
                """
                .formatted(name);
    }

    @Test
    void createDropsStatusAndUpdateConflictsOnStaleVersion() {
        Http.Response created = http.post(JOBS, job("j1"));
        assertThat(created.code()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("status").size())
                .as("status sent on create is dropped")
                .isZero();
        ObjectNode obj = created.object();
        String rv = obj.at("/metadata/resourceVersion").asText();

        ((ObjectNode) obj.get("metadata")).putObject("labels").put("a", "b");
        Http.Response updated = http.put(JOBS + "/j1", obj.toString());
        assertThat(updated.code()).as(updated.body()).isEqualTo(200);
        assertThat(updated.json().at("/metadata/labels/a").asText()).isEqualTo("b");
        assertThat(updated.json().at("/metadata/generation").asLong()).isEqualTo(1);
        assertThat(updated.json().at("/metadata/resourceVersion").asText()).isNotEqualTo(rv);

        // obj still carries the old resourceVersion
        Http.Response stale = http.put(JOBS + "/j1", obj.toString());
        assertThat(stale.code()).isEqualTo(409);
        assertThat(stale.json().get("reason").asText()).isEqualTo("Conflict");
        assertThat(stale.json().get("message").asText())
                .isEqualTo(
                        "Operation cannot be fulfilled on jobs.batch \"j1\": "
                                + "the object has been modified; please apply your changes to the latest version and try again");

        // without a resourceVersion the update is unconditional
        ((ObjectNode) obj.get("metadata")).remove("resourceVersion");
        assertThat(http.put(JOBS + "/j1", obj.toString()).code()).isEqualTo(200);
    }

    @Test
    void generationBumpsOnSpecChangeOnlyAndStatusGoesThroughTheSubresource() {
        ObjectNode job = http.post(JOBS, job("j2")).object();
        Http.Response spec = http.patch(JOBS + "/j2", "{\"spec\":{\"parallelism\":3}}", "application/merge-patch+json");
        assertThat(spec.code()).as(spec.body()).isEqualTo(200);
        assertThat(spec.json().at("/metadata/generation").asLong()).isEqualTo(2);

        Http.Response mainStatus =
                http.patch(JOBS + "/j2", "{\"status\":{\"active\":1}}", "application/merge-patch+json");
        assertThat(mainStatus.code()).isEqualTo(200);
        assertThat(mainStatus.json().at("/status/active").isMissingNode()).isTrue();
        assertThat(mainStatus.json().at("/metadata/resourceVersion").asText())
                .as("ignored status change is a no-op")
                .isEqualTo(spec.json().at("/metadata/resourceVersion").asText());

        Http.Response status = http.patch(
                JOBS + "/j2/status",
                "{\"status\":{\"active\":1},\"spec\":{\"parallelism\":9},\"metadata\":{\"labels\":{\"x\":\"y\"}}}",
                "application/merge-patch+json");
        assertThat(status.code()).as(status.body()).isEqualTo(200);
        assertThat(status.json().at("/status/active").asInt()).isEqualTo(1);
        assertThat(status.json().at("/spec/parallelism").asInt()).isEqualTo(3);
        assertThat(status.json().at("/metadata/labels/x").isMissingNode()).isTrue();
        assertThat(status.json().at("/metadata/generation").asLong()).isEqualTo(2);

        Http.Response immutable = http.patch(
                JOBS + "/j2",
                "{\"metadata\":{\"uid\":\"other\",\"creationTimestamp\":\"2000-01-01T00:00:00Z\"}}",
                "application/merge-patch+json");
        assertThat(immutable.json().at("/metadata/uid").asText())
                .isEqualTo(job.at("/metadata/uid").asText());
        assertThat(immutable.json().at("/metadata/creationTimestamp").asText())
                .isEqualTo(job.at("/metadata/creationTimestamp").asText());
    }

    @Test
    void noOpPatchDoesNotWrite() {
        Http.Response created = http.post(JOBS, job("j3"));
        String rv = created.json().at("/metadata/resourceVersion").asText();
        Http.Response same =
                http.patch(JOBS + "/j3", "{\"metadata\":{\"name\":\"j3\"}}", "application/strategic-merge-patch+json");
        assertThat(same.code()).isEqualTo(200);
        assertThat(same.json().at("/metadata/resourceVersion").asText()).isEqualTo(rv);
    }

    @Test
    void patchFormats() {
        http.post(JOBS, job("j4"));
        Http.Response json = http.patch(
                JOBS + "/j4",
                "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"k\":\"v\"}}]",
                "application/json-patch+json");
        assertThat(json.code()).as(json.body()).isEqualTo(200);
        assertThat(json.json().at("/metadata/labels/k").asText()).isEqualTo("v");

        Http.Response bad = http.patch(
                JOBS + "/j4",
                "[{\"op\":\"replace\",\"path\":\"/spec/nosuch\",\"value\":1}]",
                "application/json-patch+json");
        assertThat(bad.code()).isEqualTo(422);

        Http.Response template = http.patch(
                JOBS + "/j4",
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"alpine\"}]}}}}",
                "application/strategic-merge-patch+json");
        assertThat(template.code()).as("a job's template is immutable").isEqualTo(422);
        assertThat(template.json().at("/details/causes/0/field").asText()).isEqualTo("spec.template");

        http.post(
                "/api/v1/namespaces/default/pods",
                "{\"metadata\":{\"name\":\"smp\"},\"spec\":{\"containers\":"
                        + "[{\"name\":\"a\",\"image\":\"busybox\"},{\"name\":\"c\",\"image\":\"busybox\"}]}}");
        Http.Response smp = http.patch(
                "/api/v1/namespaces/default/pods/smp",
                "{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"alpine\"}]}}",
                "application/strategic-merge-patch+json");
        assertThat(smp.code()).as(smp.body()).isEqualTo(200);
        JsonNode containers = smp.json().at("/spec/containers");
        assertThat(containers.size()).as("merged by name").isEqualTo(2);
        assertThat(containers.get(0).get("image").asText()).isEqualTo("busybox");
        assertThat(containers.get(1).get("image").asText()).isEqualTo("alpine");

        Http.Response unsupported = http.patch(JOBS + "/j4", "{}", "application/x-foo");
        assertThat(unsupported.code()).isEqualTo(415);
    }

    @Test
    void serverSideApplyCreatesThenMerges() {
        String body =
                """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"ssa"},
                 "spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"Never"}}}}
                """;
        Http.Response created = http.patch(JOBS + "/ssa?fieldManager=kubectl", body, "application/apply-patch+yaml");
        assertThat(created.code()).as(created.body()).isEqualTo(201);
        Http.Response again = http.patch(JOBS + "/ssa?fieldManager=kubectl", body, "application/apply-patch+yaml");
        assertThat(again.code()).isEqualTo(200);
        assertThat(again.json().at("/metadata/resourceVersion").asText())
                .isEqualTo(created.json().at("/metadata/resourceVersion").asText());
        Http.Response yaml = http.patch(
                JOBS + "/ssa?fieldManager=kubectl",
                "metadata:\n  labels:\n    via: yaml\n",
                "application/apply-patch+yaml");
        assertThat(yaml.code()).as(yaml.body()).isEqualTo(200);
        assertThat(yaml.json().at("/metadata/labels/via").asText()).isEqualTo("yaml");
        assertThat(http.patch(JOBS + "/ssa", body, "application/apply-patch+yaml")
                        .code())
                .isEqualTo(422);
    }

    @Test
    void generateNameAndDryRun() {
        String body =
                """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"generateName":"gen-"},
                 "spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"Never"}}}}
                """;
        Http.Response r = http.post(JOBS, body);
        assertThat(r.code()).isEqualTo(201);
        assertThat(r.json().at("/metadata/name").asText()).matches("gen-[bcdfghjklmnpqrstvwxz2456789]{5}");

        Http.Response dry = http.post(JOBS + "?dryRun=All", job("dry"));
        assertThat(dry.code()).isEqualTo(201);
        assertThat(dry.json().at("/metadata/resourceVersion").isMissingNode()).isTrue();
        assertThat(http.get(JOBS + "/dry").code()).isEqualTo(404);
    }

    @Test
    void yamlBodiesAndStrictFieldValidation() {
        String yaml =
                """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: y1
                spec:
                  template:
                    spec:
                      containers:
                      - name: c
                        image: busybox
                      restartPolicy: Never
                """;
        Http.Response r = http.send("POST", JOBS, yaml, "application/yaml");
        assertThat(r.code()).as(r.body()).isEqualTo(201);

        String unknown = job("strict").replaceFirst("\"spec\":\\{", "\"spec\":{\"foo\":1,");
        Http.Response strict = http.post(JOBS + "?fieldValidation=Strict", unknown);
        assertThat(strict.code()).isEqualTo(400);
        assertThat(strict.json().get("message").asText())
                .isEqualTo("strict decoding error: unknown field \"spec.foo\"");

        Http.Response warn = http.post(JOBS + "?fieldValidation=Warn", unknown);
        assertThat(warn.code()).isEqualTo(201);
        assertThat(warn.header("Warning")).contains("unknown field \\\"spec.foo\\\"");
        assertThat(warn.json().at("/spec/foo").isMissingNode()).isTrue();
    }
}
