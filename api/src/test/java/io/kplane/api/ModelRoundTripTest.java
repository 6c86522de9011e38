package io.kplane.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.api.coordination.Lease;
import io.kplane.api.core.Event;
import io.kplane.api.core.Namespace;
import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import io.kplane.api.json.Json;
import io.kplane.api.meta.KubeObject;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Real-world manifests parse with the strict mapper and serialise back to the same JSON tree. */
class ModelRoundTripTest {

    @ParameterizedTest
    @CsvSource({
        "job.yaml, io.kplane.api.batch.Job",
        "cronjob.yaml, io.kplane.api.batch.CronJob",
        "pod.yaml, io.kplane.api.core.Pod",
        "node.yaml, io.kplane.api.core.Node",
        "lease.yaml, io.kplane.api.coordination.Lease",
        "event.yaml, io.kplane.api.core.Event",
    })
    void strictParseRoundTripsToTheSameTree(String file, String className) throws Exception {
        JsonNode original = yamlTree(file);
        Class<?> type = Class.forName(className);

        Object parsed = Json.strictMapper().treeToValue(original, type);
        JsonNode written = Json.mapper().readTree(Json.write(parsed));

        assertThat(written).isEqualTo(original);
    }

    @Test
    void typedFieldsAreReadable() throws Exception {
        Job job = Json.strictMapper().treeToValue(yamlTree("job.yaml"), Job.class);
        assertThat(job.spec()
                        .template()
                        .spec()
                        .containers()
                        .get(0)
                        .env()
                        .get(1)
                        .valueFrom()
                        .fieldRef()
                        .fieldPath())
                .isEqualTo("metadata.name");
        assertThat(job.spec().podFailurePolicy().rules().get(0).onExitCodes().values())
                .containsExactly(42);
        assertThat(job.spec().template().spec().nodeSelector()).containsEntry("disktype", "ssd");

        Pod pod = Json.strictMapper().treeToValue(yamlTree("pod.yaml"), Pod.class);
        assertThat(pod.phase()).isEqualTo("Failed");
        assertThat(pod.isTerminal()).isTrue();
        assertThat(pod.status().containerStatuses().get(0).state().terminated().exitCode())
                .isEqualTo(3);

        Node node = Json.strictMapper().treeToValue(yamlTree("node.yaml"), Node.class);
        assertThat(node.status().daemonEndpoints().kubeletEndpoint().port()).isEqualTo(10250);
        assertThat(node.isReady()).isTrue();

        Lease lease = Json.strictMapper().treeToValue(yamlTree("lease.yaml"), Lease.class);
        assertThat(lease.spec().renewTime()).isEqualTo(Instant.parse("2024-03-01T10:00:10.123456Z"));
    }

    @Test
    void anObjectOrArrayIsNotATimeAndDoesNotDerailTheFieldsAfterIt() throws Exception {
        for (String value : new String[] {"{\"a\":{\"b\":1}}", "[\"2024-03-01T10:00:00Z\"]"}) {
            String json = "{\"spec\":{\"acquireTime\":" + value + ",\"holderIdentity\":\"me\"}}";
            assertThatThrownBy(() -> Json.mapper().readValue(json, Lease.class))
                    .hasMessageContaining("Cannot deserialize value of type `java.time.Instant`");
        }
        Lease ok = Json.mapper()
                .readValue(
                        "{\"spec\":{\"acquireTime\":\"2024-03-01T10:00:00Z\",\"holderIdentity\":\"me\"}}", Lease.class);
        assertThat(ok.spec().holderIdentity()).isEqualTo("me");
    }

    @Test
    void convenienceMethodsAreNotSerialised() {
        Pod pod = new Pod(null, null, null, null, null);
        assertThat(Json.write(pod)).isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}");
        Job job = new Job(null, null, null, null, null);
        assertThat(Json.write(job)).isEqualTo("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\"}");
        assertThat(Json.write(io.kplane.api.meta.ObjectMeta.named("ns", "n")))
                .isEqualTo("{\"name\":\"n\",\"namespace\":\"ns\"}");
    }

    @Test
    void microTimesAlwaysCarrySixFractionalDigits() {
        Lease lease = new Lease(
                null,
                null,
                null,
                io.kplane.api.coordination.LeaseSpecBuilder.builder()
                        .renewTime(Instant.parse("2024-03-01T10:00:00Z"))
                        .build());
        assertThat(Json.write(lease)).contains("\"renewTime\":\"2024-03-01T10:00:00.000000Z\"");
    }

    @Test
    void strictMapperRejectsUnknownFields() {
        assertThatThrownBy(() ->
                        Json.strictMapper().readValue("{\"kind\":\"Pod\",\"spec\":{\"containerz\":[]}}", Pod.class))
                .hasMessageContaining("containerz");
    }

    @Test
    void withMetadataKeepsTheConcreteType() {
        KubeObject ns = new Namespace(null, null, null, null, null)
                .withMetadata(io.kplane.api.meta.ObjectMeta.named(null, "dev"));
        assertThat(ns).isInstanceOf(Namespace.class);
        assertThat(ns.name()).isEqualTo("dev");
        Event ev = new Event(
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
        assertThat(ev.kind()).isEqualTo("Event");
        assertThat(new CronJob(null, null, null, null, null).apiVersion()).isEqualTo("batch/v1");
    }

    private static JsonNode yamlTree(String file) throws IOException {
        try (InputStream in = ModelRoundTripTest.class.getResourceAsStream("/manifests/" + file)) {
            return Json.mapper().valueToTree(Json.yamlMapper().readTree(in));
        }
    }
}
