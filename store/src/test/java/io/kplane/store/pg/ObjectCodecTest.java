package io.kplane.store.pg;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The reusable encoding of a write must be byte-for-byte what serialising the stamped tree gives. */
class ObjectCodecTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"resourceVersion\":\"7\","
                        + "\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}",
                "{\"metadata\":{}}",
                "{\"metadata\":{\"resourceVersion\":\"3\"},\"spec\":{}}",
                "{\"kind\":\"Job\",\"spec\":{\"template\":{\"metadata\":{\"labels\":{\"x\":\"}\"}}}},\"metadata\":{\"name\":\"j\"}}",
                "{\"metadata\":{\"name\":\"ü-\\\"quoted\\\"-\\u2028\",\"annotations\":{\"k\":\"{}\\\\\"}},\"n\":1.50,\"big\":12345678901234567890}",
            })
    void spliceEqualsSerialisingTheStampedTree(String json) throws Exception {
        ObjectNode written = (ObjectNode) Json.mapper().readTree(json);
        ObjectCodec.Encoded encoded = ObjectCodec.encodeOwned(written);

        ObjectNode expected = ObjectCodec.stamp((ObjectNode) Json.mapper().readTree(encoded.text()), 42);
        assertThat(encoded.reusable()).isNotNull();
        assertThat(encoded.reusable().json(42)).isEqualTo(Json.mapper().writeValueAsString(expected));
        assertThat(encoded.reusable().json(42))
                .isEqualTo(Json.mapper().writeValueAsString(ObjectCodec.stamp(written, 42)));
        assertThat(encoded.text()).doesNotContain("\"resourceVersion\"");
    }

    @Test
    void keptTreesHaveTheNodeTypesOfAParse() throws Exception {
        ObjectNode built = Json.mapper().createObjectNode();
        built.putObject("metadata").put("name", "p").put("generation", 1L);
        built.putObject("spec")
                .put("terminationGracePeriodSeconds", 30L)
                .put("big", 12345678901L)
                .put("short", (short) 3)
                .put("ratio", 0.5f)
                .put("d", 2.25)
                .putArray("list")
                .add(7L)
                .add("x")
                .addNull();
        ObjectNode parsed = (ObjectNode) Json.mapper().readTree(Json.mapper().writeValueAsString(built));

        assertThat(built).isNotEqualTo(parsed); // LongNode(1) is not IntNode(1)
        assertThat(ObjectCodec.parsedFormCopy(built)).isEqualTo(parsed);
        assertThat(Json.mapper().writeValueAsString(ObjectCodec.parsedFormCopy(built)))
                .isEqualTo(Json.mapper().writeValueAsString(parsed));
    }

    @Test
    void objectsWithoutMetadataAreStoredButNotReusable() throws Exception {
        ObjectCodec.Encoded encoded =
                ObjectCodec.encodeOwned((ObjectNode) Json.mapper().readTree("{\"spec\":{\"metadata\":{}}}"));
        assertThat(encoded.text()).isEqualTo("{\"spec\":{\"metadata\":{}}}");
        assertThat(encoded.reusable()).isNull();
    }
}
