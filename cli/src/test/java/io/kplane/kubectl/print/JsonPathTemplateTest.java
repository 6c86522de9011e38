package io.kplane.kubectl.print;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.kubectl.CliException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kubectl's JSONPath templates on a Job list, table-driven like client-go's {@code jsonpath_test.go}
 * (which kubectl's {@code -o jsonpath} uses with missing keys allowed).
 */
class JsonPathTemplateTest {
    private static final JsonNode JOBS = read(
            """
            {"kind":"JobList","items":[
              {"metadata":{"name":"pi","labels":{"app":"pi","app.kubernetes.io/name":"calc"}},
               "spec":{"completions":3,"template":{"spec":{"containers":[{"name":"pi","image":"perl"},{"name":"side","image":"busybox"}]}}},
               "status":{"succeeded":3,"conditions":[{"type":"SuccessCriteriaMet","status":"True"},{"type":"Complete","status":"True"}]}},
              {"metadata":{"name":"sleep","labels":{"app":"sleep"}},
               "spec":{"completions":1,"suspend":true,"template":{"spec":{"containers":[{"name":"s","image":"busybox"}]}}},
               "status":{"active":1}}
            ]}""");

    private static JsonNode read(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("plain text", "hello", "hello"),
                Arguments.of("a field", "{.kind}", "JobList"),
                Arguments.of("root with $", "{$.kind}", "JobList"),
                Arguments.of("index", "{.items[0].metadata.name}", "pi"),
                Arguments.of("negative index", "{.items[-1].metadata.name}", "sleep"),
                Arguments.of("index out of range is empty", "{.items[5].metadata.name}", ""),
                Arguments.of("wildcard joins with spaces", "{.items[*].metadata.name}", "pi sleep"),
                Arguments.of(
                        "nested wildcards",
                        "{.items[*].spec.template.spec.containers[*].image}",
                        "perl busybox busybox"),
                Arguments.of(
                        "numbers and booleans print bare",
                        "{.items[0].spec.completions} {.items[1].spec.suspend}",
                        "3 true"),
                Arguments.of("a missing key prints nothing", "{.items[0].status.failed}", ""),
                Arguments.of("a map prints as JSON", "{.items[1].metadata.labels}", "{\"app\":\"sleep\"}"),
                Arguments.of(
                        "a list prints as JSON",
                        "{.items[0].metadata.name}{.items[1].spec.template.spec.containers}",
                        "pi[{\"name\":\"s\",\"image\":\"busybox\"}]"),
                Arguments.of("escaped dots in a key", "{.items[0].metadata.labels.app\\.kubernetes\\.io/name}", "calc"),
                Arguments.of("a key in brackets", "{.items[0].metadata.labels['app.kubernetes.io/name']}", "calc"),
                Arguments.of(
                        "filter on equality", "{.items[0].status.conditions[?(@.type==\"Complete\")].status}", "True"),
                Arguments.of(
                        "filter with single quotes",
                        "{.items[0].status.conditions[?(@.type=='SuccessCriteriaMet')].type}",
                        "SuccessCriteriaMet"),
                Arguments.of(
                        "filter on existence",
                        "{.items[*].status.conditions[?(@.status)].type}",
                        "SuccessCriteriaMet Complete"),
                Arguments.of("filter with no match", "{.items[0].status.conditions[?(@.type==\"Failed\")].status}", ""),
                Arguments.of(
                        "range with newline literal", "{range .items[*]}{.metadata.name}{\"\\n\"}{end}", "pi\nsleep\n"),
                Arguments.of(
                        "range with tab-separated columns",
                        "{range .items[*]}{.metadata.name}{\"\\t\"}{.spec.completions}{\"\\n\"}{end}",
                        "pi\t3\nsleep\t1\n"),
                Arguments.of(
                        "nested ranges",
                        "{range .items[*]}{.metadata.name}:{range .spec.template.spec.containers[*]} {.name}{end};{end}",
                        "pi: pi side;sleep: s;"),
                Arguments.of("text around expressions", "name={.items[0].metadata.name}!", "name=pi!"),
                Arguments.of("a quoted literal with a brace", "{\"}\"}", "}"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void renders(String name, String template, String expected) {
        assertThat(JsonPathTemplate.parse(template).render(JOBS)).isEqualTo(expected);
    }

    @Test
    void malformedTemplatesAreCliErrors() {
        assertThatThrownBy(() -> JsonPathTemplate.parse("{.items[*]"))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("unclosed action");
        assertThatThrownBy(() -> JsonPathTemplate.parse("{range .items[*]}{.x}"))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("unclosed range");
        assertThatThrownBy(() -> JsonPathTemplate.parse("{end}"))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("not in range");
        assertThatThrownBy(() -> JsonPathTemplate.parse("{.items[x]}").render(JOBS))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("bad index");
    }
}
