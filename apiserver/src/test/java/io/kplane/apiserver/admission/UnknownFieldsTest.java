package io.kplane.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.core.Container;
import io.kplane.api.json.Json;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.apiserver.errors.ApiError;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The tree walk against the typed decode it replaces ({@link DecodeOracle}). */
class UnknownFieldsTest {
    static final List<ResourceType> TYPES = ResourceTypes.ALL;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    @ParameterizedTest
    @FieldSource("TYPES")
    void realisticObjectsHaveNoUnknownFieldsAndNeedNoDecode(ResourceType type) {
        ObjectNode object = SampleObjects.of(type);
        assertThat(DecodeOracle.find(type, object)).as("sample body is valid").isEmpty();
        UnknownFieldWalk walk = UnknownFieldWalk.of(new FieldShapes(Json.mapper()).of(type.javaType()), object);
        assertThat(walk.shapeInDoubt()).isFalse();
        assertThat(walk.valueInDoubt()).isFalse();
        assertThat(UnknownFields.find(type, object)).isEmpty();
    }

    @Test
    void nestedUnknownsInListsAndMapsInDocumentOrder() {
        ObjectNode pod = SampleObjects.of(ResourceTypes.PODS);
        ((ObjectNode) pod.get("metadata")).put("bogus", 1);
        ObjectNode spec = (ObjectNode) pod.get("spec");
        ((ObjectNode) spec.at("/containers/0")).putObject("foo").put("x", 1);
        ((ObjectNode) spec.at("/containers/0/env/1/valueFrom/fieldRef")).put("extra", "e");
        ((ObjectNode) spec.at("/containers/0/ports/0")).put("hostPortX", 1);
        // labels, annotations, nodeSelector are maps and opaque JSON fields take anything
        ((ObjectNode) pod.at("/metadata/labels")).put("anything", "goes");
        ((ObjectNode) pod.at("/metadata/annotations")).put("foo", "bar");
        ((ObjectNode) spec.get("nodeSelector")).put("zone", "a");
        ((ObjectNode) spec.get("securityContext")).put("madeUp", true);
        ((ObjectNode) pod.at("/status/containerStatuses/0/state/running")).put("since", "x");
        ((ObjectNode) pod.get("status")).put("zzz", List.of().toString());

        List<String> expected = List.of(
                "metadata.bogus",
                "spec.containers[0].ports[0].hostPortX",
                "spec.containers[0].env[1].valueFrom.fieldRef.extra",
                "spec.containers[0].foo",
                "status.containerStatuses[0].state.running.since",
                "status.zzz");
        assertThat(UnknownFields.find(ResourceTypes.PODS, pod)).containsExactlyElementsOf(expected);
        assertThat(DecodeOracle.find(ResourceTypes.PODS, pod)).containsExactlyInAnyOrderElementsOf(expected);

        ObjectNode pruned = pod.deepCopy();
        UnknownFields.prune(pruned, ResourceTypes.PODS);
        ObjectNode oraclePruned = pod.deepCopy();
        DecodeOracle.prune(oraclePruned, ResourceTypes.PODS);
        assertThat(pruned).isEqualTo(oraclePruned);
        assertThat(UnknownFields.find(ResourceTypes.PODS, pruned)).isEmpty();
        assertThat(pruned.at("/metadata/labels/anything").asText()).isEqualTo("goes");
    }

    @Test
    void unknownFieldBeforeKnownNestedOneIsReportedFirst() {
        ObjectNode job = (ObjectNode) Json.tree(
                """
                {"spec": {"foo": 1, "template": {"spec": {"bar": 2, "containers": []}}}}""");
        assertThat(UnknownFields.find(ResourceTypes.JOBS, job)).containsExactly("spec.foo", "spec.template.spec.bar");
    }

    @Test
    void numericFieldNamesAreFieldsNotIndexes() {
        ObjectNode job = (ObjectNode) Json.tree("{\"metadata\": {\"5\": 1}, \"spec\": {\"template\": {\"7\": {}}}}");
        assertThat(UnknownFields.find(ResourceTypes.JOBS, job)).containsExactly("metadata.5", "spec.template.7");
    }

    @Test
    void wrongTypesAreTheDecodersBadRequest() {
        for (String body : List.of(
                "{\"spec\": {\"parallelism\": \"many\"}}",
                "{\"spec\": {\"parallelism\": {}}}",
                "{\"spec\": {\"template\": {\"spec\": {\"containers\": {\"name\": \"c\"}}}}}",
                "{\"spec\": {\"template\": {\"spec\": {\"containers\": [{\"name\": [1]}]}}}}",
                "{\"metadata\": {\"labels\": {\"a\": {\"b\": 1}}}}",
                "{\"metadata\": {\"labels\": []}}",
                "{\"metadata\": \"x\"}",
                "{\"metadata\": {\"creationTimestamp\": \"yesterday\"}}",
                "{\"status\": {\"startTime\": 5}}",
                "{\"spec\": {\"activeDeadlineSeconds\": 99999999999999999999999}}",
                "{\"spec\": {\"suspend\": \"perhaps\"}}",
                "{\"foo\": 1, \"spec\": {\"completions\": \"x\"}}")) {
            ObjectNode job = (ObjectNode) Json.tree(body);
            String expected = messageOf(() -> DecodeOracle.find(ResourceTypes.JOBS, job));
            assertThat(expected).as(body).startsWith("error decoding Job: ");
            assertThatThrownBy(() -> UnknownFields.find(ResourceTypes.JOBS, job))
                    .as(body)
                    .isInstanceOfSatisfying(
                            ApiError.class, e -> assertThat(e.code()).isEqualTo(400))
                    .hasMessage(expected);
            assertThatThrownBy(() -> UnknownFields.prune(job.deepCopy(), ResourceTypes.JOBS))
                    .hasMessage(expected);
        }
    }

    @Test
    void objectGivenAsTimeIsABadRequest() {
        ObjectNode lease = (ObjectNode)
                Json.tree(
                        """
                {"spec": {"acquireTime": {}, "renewTime": "2025-03-01T10:00:10Z", "leaseTransitions": 3}}""");
        // the walk and the typed decoder agree (the decoder used to read {} as null and lose its place)
        String message = "error decoding Lease: field spec.acquireTime: Cannot deserialize value of type "
                + "`java.time.Instant` from Object value (token `JsonToken.START_OBJECT`)";
        assertThatThrownBy(() -> DecodeOracle.find(ResourceTypes.LEASES, lease))
                .isInstanceOfSatisfying(
                        ApiError.class, e -> assertThat(e.code()).isEqualTo(400))
                .hasMessage(message);
        assertThatThrownBy(() -> UnknownFields.find(ResourceTypes.LEASES, lease))
                .isInstanceOfSatisfying(
                        ApiError.class, e -> assertThat(e.code()).isEqualTo(400))
                .hasMessage(message);
    }

    /** Reads only the name: a custom deserializer the walk cannot see into. */
    static final class NameOnly extends com.fasterxml.jackson.databind.JsonDeserializer<Container> {
        @Override
        public Container deserialize(
                com.fasterxml.jackson.core.JsonParser p, com.fasterxml.jackson.databind.DeserializationContext ctxt)
                throws java.io.IOException {
            JsonNode tree = p.readValueAsTree();
            return io.kplane.api.core.ContainerBuilder.builder()
                    .name(tree.path("name").asText())
                    .build();
        }
    }

    /** A model with a value the walk does not follow (custom deserializer): the decoder's answer is used. */
    record Opaque(
            String apiVersion,
            String kind,
            ObjectMeta metadata,
            @com.fasterxml.jackson.databind.annotation.JsonDeserialize(using = NameOnly.class) Container main)
            implements KubeObject {
        @Override
        public KubeObject withMetadata(ObjectMeta metadata) {
            return new Opaque(apiVersion, kind, metadata, main);
        }
    }

    @Test
    void typesTheWalkDoesNotModelFallBackToTheDecode() {
        ResourceType type = new ResourceType(
                "test.kplane.io",
                "v1",
                "opaques",
                "Opaque",
                "OpaqueList",
                "opaque",
                true,
                List.of(),
                List.of(),
                List.of("get"),
                List.of(),
                Opaque.class);
        ObjectNode object = (ObjectNode)
                Json.tree(
                        """
                {"metadata": {"name": "o", "x": {"a": 1}}, "main": {"name": "c", "y": [1]}, "z": 1}""");
        assertThat(UnknownFieldWalk.of(new FieldShapes(Json.mapper()).of(Opaque.class), object)
                        .shapeInDoubt())
                .isTrue();
        assertThat(UnknownFields.find(type, object)).containsExactlyInAnyOrder("metadata.x", "z");
        UnknownFields.prune(object, type);
        assertThat(object.toString()).isEqualTo("{\"metadata\":{\"name\":\"o\"},\"main\":{\"name\":\"c\",\"y\":[1]}}");
    }

    @Test
    void coercibleValuesAreAcceptedLikeTheDecoderDoes() {
        ObjectNode job = (ObjectNode)
                Json.tree(
                        """
                {"spec": {"parallelism": "3", "suspend": "true", "completionMode": 5, "extra": 1},
                 "metadata": {"labels": {"n": 1}, "creationTimestamp": "2025-03-01T10:00:00+02:00"}}""");
        assertThat(UnknownFields.find(ResourceTypes.JOBS, job))
                .isEqualTo(DecodeOracle.find(ResourceTypes.JOBS, job))
                .containsExactly("spec.extra");
    }

    @Test
    void timeFastPathAcceptsOnlyWhatTheParserAccepts() {
        for (String t : List.of(
                "2025-03-01T10:00:00Z",
                "2024-02-29T23:59:59Z",
                "2023-02-29T00:00:00Z",
                "2025-04-31T00:00:00Z",
                "2025-13-01T00:00:00Z",
                "2025-03-01T24:00:00Z",
                "2025-03-01T10:60:00Z",
                "2025-03-01T10:00:60Z",
                "2025-03-01T10:00:00.Z",
                "2025-03-01T10:00:00.1Z",
                "2025-03-01T10:00:00.123456789Z",
                "2025-03-01T10:00:00.1234567890Z",
                "0000-01-01T00:00:00Z",
                "2025-03-01t10:00:00Z",
                "2025-03-01T10:00:00z",
                "2025-03-01 10:00:00Z",
                "2025-3-01T10:00:00Z",
                "+2025-03-01T10:00:00Z",
                "2025-03-01T10:00:00+01:00",
                "2025-03-01T10:00Z",
                "")) {
            boolean parses = parses(t);
            if (UnknownFieldWalk.isPlainUtcTime(t)) {
                assertThat(parses).as(t).isTrue();
            }
            assertThat(UnknownFieldWalk.isTime(t)).as(t).isEqualTo(parses || t.isEmpty());
        }
    }

    /**
     * Random edits of every sample (unknown fields anywhere, values of other JSON types anywhere): the
     * walk reports the same unknown fields and the same errors as the decode, and prunes the same.
     */
    @ParameterizedTest
    @FieldSource("TYPES")
    void agreesWithTheDecodeOnRandomEdits(ResourceType type) {
        Random random = new Random(type.kind().hashCode());
        for (int round = 0; round < 400; round++) {
            ObjectNode object = SampleObjects.of(type);
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                edit(object, random);
            }
            String body = object.toString();
            String oracleError = null;
            List<String> oracle = null;
            try {
                oracle = DecodeOracle.find(type, object);
            } catch (ApiError e) {
                oracleError = e.getMessage();
            }
            if (oracleError != null) {
                String expected = oracleError;
                assertThatThrownBy(() -> UnknownFields.find(type, object))
                        .as(body)
                        .hasMessage(expected);
                continue;
            }
            List<String> found = UnknownFields.find(type, object);
            assertThat(found).as(body).containsExactlyInAnyOrderElementsOf(oracle);
            ObjectNode pruned = object.deepCopy();
            UnknownFields.prune(pruned, type);
            ObjectNode oraclePruned = object.deepCopy();
            DecodeOracle.prune(oraclePruned, type);
            assertThat(pruned).as(body).isEqualTo(oraclePruned);
        }
    }

    private static void edit(ObjectNode root, Random random) {
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        JsonNode target = containers.get(random.nextInt(containers.size()));
        if (target instanceof ObjectNode object && (random.nextBoolean() || object.isEmpty())) {
            object.set("zz" + random.nextInt(1000), randomValue(random));
        } else if (target instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            object.set(names.get(random.nextInt(names.size())), randomValue(random));
        } else if (target instanceof ArrayNode array && !array.isEmpty()) {
            array.set(random.nextInt(array.size()), randomValue(random));
        }
    }

    private static void collect(JsonNode node, List<JsonNode> into) {
        if (node.isContainerNode()) {
            into.add(node);
            node.forEach(child -> collect(child, into));
        }
    }

    private static JsonNode randomValue(Random random) {
        return switch (random.nextInt(12)) {
            case 0 -> F.objectNode().put("k", "v");
            case 1 -> F.arrayNode().add(1);
            case 2 -> F.arrayNode().add(F.objectNode().put("name", "n").put("zq", 1));
            case 3 -> F.numberNode(7);
            case 4 -> F.numberNode(1.5);
            case 5 -> F.numberNode(1L << 40);
            case 6 -> F.textNode("3");
            case 7 -> F.textNode("text");
            case 8 -> F.textNode("2025-03-01T10:00:00Z");
            case 9 -> F.booleanNode(true);
            case 10 -> F.nullNode();
            default -> F.objectNode();
        };
    }

    private static boolean parses(String t) {
        try {
            Instant.parse(t);
            return true;
        } catch (DateTimeParseException e) {
            try {
                OffsetDateTime.parse(t);
                return true;
            } catch (DateTimeParseException e2) {
                return false;
            }
        }
    }

    private static String messageOf(Runnable r) {
        try {
            r.run();
            return null;
        } catch (ApiError e) {
            return e.getMessage();
        }
    }
}
