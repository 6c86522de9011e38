package io.kplane.apiserver.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.ResourceTypes;
import io.kplane.apiserver.errors.ApiError;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Batch;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

class ProtobufBodyDecoderTest {
    private final ProtobufBodyDecoder decoder = new ProtobufBodyDecoder();

    /** The body kubectl 1.32 sends for {@code create job manual-1 --from=cronjob/hello}, with Go's zero values. */
    private static Buffer kubectlCreateJobBody() throws Exception {
        Meta.Time zero =
                Meta.Time.newBuilder().setSeconds(-62135596800L).setNanos(0).build();
        V1Batch.Job job = V1Batch.Job.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder()
                        .setName("manual-1")
                        .setNamespace("")
                        .setGeneration(0)
                        .setCreationTimestamp(zero)
                        .putAnnotations("cronjob.kubernetes.io/instantiate", "manual")
                        .addOwnerReferences(Meta.OwnerReference.newBuilder()
                                .setKind("CronJob")
                                .setName("hello")
                                .setUid("86170ad2")
                                .setApiVersion("batch/v1")
                                .setController(true)))
                .setSpec(V1Batch.JobSpec.newBuilder()
                        .setBackoffLimit(0)
                        .setTemplate(V1.PodTemplateSpec.newBuilder()
                                .setMetadata(Meta.ObjectMeta.newBuilder().setCreationTimestamp(zero))
                                .setSpec(V1.PodSpec.newBuilder()
                                        .setRestartPolicy("OnFailure")
                                        .setHostNetwork(false)
                                        .addContainers(V1.Container.newBuilder()
                                                .setName("hello")
                                                .setImage("busybox")
                                                .addCommand("sh")
                                                .addCommand("-c")
                                                .addCommand("date")
                                                .setTerminationMessagePath("")
                                                .setStdin(false)
                                                .setResources(V1.ResourceRequirements.newBuilder()
                                                        .putLimits(
                                                                "memory",
                                                                Resource.Quantity.newBuilder()
                                                                        .setString("64Mi")
                                                                        .build()))
                                                .addPorts(V1.ContainerPort.newBuilder()
                                                        .setContainerPort(8080)))
                                        .setTerminationGracePeriodSeconds(0))))
                .build();
        Runtime.Unknown unknown = Runtime.Unknown.newBuilder()
                .setTypeMeta(
                        Runtime.TypeMeta.newBuilder().setApiVersion("batch/v1").setKind("Job"))
                .setRaw(job.toByteString())
                .setContentEncoding("")
                .setContentType("")
                .build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {'k', '8', 's', 0});
        unknown.writeTo(out);
        return Buffer.buffer(out.toByteArray());
    }

    @Test
    void decodesKubectlsJobIntoTheJsonKubernetesWouldWrite() throws Exception {
        assertThat(decoder.supports("application/vnd.kubernetes.protobuf")).isTrue();
        JsonNode json = decoder.decode(kubectlCreateJobBody(), ResourceTypes.JOBS);
        assertThat(json.path("apiVersion").asText()).isEqualTo("batch/v1");
        assertThat(json.path("kind").asText()).isEqualTo("Job");
        JsonNode meta = json.path("metadata");
        assertThat(meta.path("name").asText()).isEqualTo("manual-1");
        assertThat(meta.has("namespace")).isFalse();
        assertThat(meta.has("generation")).isFalse();
        assertThat(meta.has("creationTimestamp")).isFalse();
        assertThat(meta.path("annotations")
                        .path("cronjob.kubernetes.io/instantiate")
                        .asText())
                .isEqualTo("manual");
        assertThat(meta.path("ownerReferences").get(0).path("controller").asBoolean())
                .isTrue();
        assertThat(meta.path("ownerReferences").get(0).path("uid").asText()).isEqualTo("86170ad2");
        JsonNode spec = json.path("spec");
        assertThat(spec.path("backoffLimit").isInt())
                .as("a pointer field keeps its zero")
                .isTrue();
        JsonNode pod = spec.path("template").path("spec");
        assertThat(pod.path("restartPolicy").asText()).isEqualTo("OnFailure");
        assertThat(pod.has("hostNetwork")).isFalse();
        assertThat(pod.path("terminationGracePeriodSeconds").asLong(-1)).isZero();
        JsonNode container = pod.path("containers").get(0);
        assertThat(container.path("command")).hasSize(3);
        assertThat(container.has("stdin")).isFalse();
        assertThat(container.has("terminationMessagePath")).isFalse();
        assertThat(container.path("resources").path("limits").path("memory").asText())
                .isEqualTo("64Mi");
        assertThat(container.path("ports").get(0).path("containerPort").asInt()).isEqualTo(8080);
    }

    @Test
    void convertsTimesAndIntOrString() {
        Meta.Time t = Meta.Time.newBuilder().setSeconds(1_767_268_800L).build();
        V1.Pod pod = V1.Pod.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("p").setCreationTimestamp(t))
                .setSpec(V1.PodSpec.newBuilder()
                        .addContainers(V1.Container.newBuilder()
                                .setName("c")
                                .setReadinessProbe(V1.Probe.newBuilder()
                                        .setHandler(V1.ProbeHandler.newBuilder()
                                                .setHttpGet(V1.HTTPGetAction.newBuilder()
                                                        .setPort(IntStr.IntOrString.newBuilder()
                                                                .setType(1)
                                                                .setStrVal("http")))))))
                .build();
        JsonNode json = ProtobufJson.toJson(pod);
        assertThat(json.path("metadata").path("creationTimestamp").asText()).isEqualTo("2026-01-01T12:00:00Z");
        assertThat(json.at("/spec/containers/0/readinessProbe/httpGet/port").asText())
                .isEqualTo("http");
    }

    @Test
    void rejectsGarbageWithABadRequest() {
        assertThatThrownBy(() -> decoder.decode(Buffer.buffer("{\"kind\":\"Job\"}"), ResourceTypes.JOBS))
                .isInstanceOfSatisfying(
                        ApiError.class, e -> assertThat(e.code()).isEqualTo(400));
        assertThatThrownBy(() -> decoder.decode(
                        Buffer.buffer(new byte[] {'k', '8', 's', 0, (byte) 0xff, 1, 2}), ResourceTypes.JOBS))
                .isInstanceOfSatisfying(
                        ApiError.class, e -> assertThat(e.code()).isEqualTo(400));
    }

    private static Buffer envelope(String apiVersion, String kind, com.google.protobuf.ByteString raw)
            throws Exception {
        Runtime.Unknown unknown = Runtime.Unknown.newBuilder()
                .setTypeMeta(
                        Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(raw)
                .build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {'k', '8', 's', 0});
        unknown.writeTo(out);
        return Buffer.buffer(out.toByteArray());
    }

    /** Any served kind decodes by its name, with no per-kind entry: bytes become base64, maps stay maps. */
    @Test
    void decodesEveryServedKindByItsMessageName() throws Exception {
        V1.ConfigMap cm = V1.ConfigMap.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("cm").setNamespace(""))
                .putData("a", "b")
                .putData("empty", "")
                .putBinaryData("bin", com.google.protobuf.ByteString.copyFrom(new byte[] {0, 1, 2}))
                .setImmutable(false)
                .build();
        JsonNode json = decoder.decode(envelope("v1", "ConfigMap", cm.toByteString()), ResourceTypes.CONFIGMAPS);
        assertThat(json)
                .isEqualTo(
                        io.kplane.api.json.Json.mapper()
                                .readTree(
                                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\"},"
                                                + "\"immutable\":false,\"data\":{\"a\":\"b\",\"empty\":\"\"},\"binaryData\":{\"bin\":\"AAEC\"}}"));

        V1.Secret secret = V1.Secret.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("s"))
                .putData("password", com.google.protobuf.ByteString.copyFromUtf8("s3cr=t"))
                .setType("Opaque")
                .build();
        JsonNode s = decoder.decode(envelope("v1", "Secret", secret.toByteString()), ResourceTypes.SECRETS);
        assertThat(s.at("/data/password").asText()).isEqualTo("czNjcj10");
        assertThat(s.at("/type").asText()).isEqualTo("Opaque");
    }

    /** A kind with no generated message (coordination.k8s.io here) is a clear 415, never a 500. */
    @Test
    void aKindWithoutAGeneratedMessageIsA415() {
        assertThatThrownBy(() -> decoder.decode(
                        envelope("coordination.k8s.io/v1", "Lease", com.google.protobuf.ByteString.EMPTY),
                        ResourceTypes.LEASES))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.code()).isEqualTo(415);
                    assertThat(e.getMessage()).contains("coordination.k8s.io/v1, Kind=Lease");
                });
        assertThatThrownBy(() -> decoder.decode(
                        envelope("v1", "PodSpec", com.google.protobuf.ByteString.EMPTY), ResourceTypes.PODS))
                .isInstanceOfSatisfying(
                        ApiError.class, e -> assertThat(e.code()).isEqualTo(415));
    }
}
