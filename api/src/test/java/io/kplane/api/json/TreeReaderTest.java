package io.kplane.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link TreeReader} builds exactly the tree {@code ObjectMapper.readTree} builds (node types included). */
class TreeReaderTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "{}",
                "[]",
                "null",
                "\"text\"",
                "0",
                "-0",
                "-7",
                "999999999",
                "-999999999",
                "1000000000",
                "[0, 7, -1, 123456789, 1234567890]",
                "2147483647",
                "2147483648",
                "-2147483649",
                "9223372036854775807",
                "9223372036854775808",
                "123456789012345678901234567890",
                "1.5",
                "-0.0",
                "1e3",
                "1E-300",
                "1.7976931348623157e309",
                "3.141592653589793238462643383279",
                "true",
                "false",
                "{\"a\":1,\"a\":2}",
                "{\"a\":{\"b\":[1,2,{\"c\":null}]},\"d\":\"\\u00e9\\n\\\"\"}",
                "{\"kind\":\"Table\",\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":{\"resourceVersion\":\"42\"},"
                        + "\"columnDefinitions\":[{\"name\":\"Name\",\"type\":\"string\",\"format\":\"name\",\"priority\":0}],"
                        + "\"rows\":[{\"cells\":[\"p1\",\"0/1\",0,\"5s\"],\"object\":{\"kind\":\"PartialObjectMetadata\"}}]}",
                "{\"a\":1} trailing",
                "[1, [2, [3, [4, []]]], {}]"
            })
    void jsonTreesAreTheMappers(String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        JsonNode expected = Json.mapper().readTree(bytes);
        JsonNode actual = TreeReader.json(bytes);
        assertThat(actual).isEqualTo(expected);
        assertThat(actual.getClass()).isEqualTo(expected.getClass());
        assertThat(actual.toString()).isEqualTo(expected.toString());
    }

    @Test
    void randomJsonTreesAreTheMappers() throws IOException {
        Random random = new Random(18);
        for (int i = 0; i < 500; i++) {
            byte[] bytes = randomValue(random, 0).getBytes(StandardCharsets.UTF_8);
            assertThat(TreeReader.json(bytes).toString())
                    .isEqualTo(Json.mapper().readTree(bytes).toString());
            assertThat(TreeReader.json(bytes)).isEqualTo(Json.mapper().readTree(bytes));
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "apiVersion: v1\nkind: Config\nclusters:\n- name: kplane\n  cluster:\n    server: http://127.0.0.1:6443\n"
                        + "    insecure-skip-tls-verify: true\nusers:\n- name: u\n  user: {token: abc}\n"
                        + "contexts:\n- name: kplane\n  context: {cluster: kplane, user: u, namespace: ns}\n"
                        + "current-context: kplane\npreferences: {}\n",
                "a: 1\nb: 2.5\nc: ~\nd: 'yes'\ne: yes\nf: 0x1F\ng: 12345678901\nh: 123456789012345678901234567890\n",
                // integer forms beside plain digits (TreeReader reads up to nine plain digits itself)
                "a: 010\nb: +5\nc: 1_000\nd: 0o17\ne: -0\nf: 0\ng: 999999999\nh: 1000000000\ni: -999999999\nj: '7'\n",
                "- a\n- [1, 2]\n- {x: y}\n",
                "anchors:\n  base: &b {a: 1}\n  copy: *b\n",
                "bin: !!binary aGVsbG8=\n",
                "---\nfirst: 1\n---\nsecond: 2\n",
                "just text",
                "---\n",
                ""
            })
    void yamlTreesAreTheYamlMappers(String yaml) throws IOException {
        JsonNode expected = Json.yamlMapper().readTree(yaml);
        JsonNode actual = TreeReader.yaml(yaml);
        assertThat(actual).isEqualTo(expected);
        assertThat(TreeReader.yaml(yaml.getBytes(StandardCharsets.UTF_8))).isEqualTo(expected);
    }

    @Test
    void malformedInputIsAnIOExceptionLikeTheMappers() {
        assertThatThrownBy(() -> TreeReader.json("{\"a\":".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> TreeReader.yaml("a: [1, 2")).isInstanceOf(IOException.class);
    }

    private static String randomValue(Random r, int depth) {
        int kind = depth > 4 ? 2 + r.nextInt(5) : r.nextInt(7);
        switch (kind) {
            case 0: {
                StringBuilder sb = new StringBuilder("{");
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    sb.append(i == 0 ? "" : ",")
                            .append("\"k")
                            .append(r.nextInt(3))
                            .append("\":");
                    sb.append(randomValue(r, depth + 1));
                }
                return sb.append('}').toString();
            }
            case 1: {
                StringBuilder sb = new StringBuilder("[");
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    sb.append(i == 0 ? "" : ",").append(randomValue(r, depth + 1));
                }
                return sb.append(']').toString();
            }
            case 2:
                return Long.toString(r.nextLong() >> r.nextInt(64));
            case 3:
                return Double.toString(r.nextGaussian() * Math.pow(10, r.nextInt(40) - 20));
            case 4:
                return "\"s" + r.nextInt(1000) + "\\t\"";
            case 5:
                return r.nextBoolean() ? "true" : "null";
            default:
                return new java.math.BigInteger(100, r).toString();
        }
    }
}
