package io.kplane.api.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.api.meta.LabelSelector;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LabelQueryTest {
    private static final Map<String, String> LABELS = Map.of("app", "web", "tier", "frontend", "release", "3");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "app=web | true",
                "app==web | true",
                "app=db | false",
                "app!=db | true",
                "app!=web | false",
                "missing!=x | true",
                "tier in (frontend,backend) | true",
                "tier in (backend) | false",
                "tier notin (backend) | true",
                "tier notin (frontend) | false",
                "missing notin (x) | true",
                "app | true",
                "missing | false",
                "!missing | true",
                "!app | false",
                "app=web,tier=frontend | true",
                "app=web,tier=backend | false",
                "  app = web , tier in ( frontend ) | true",
                "release>2 | true",
                "release<3 | false",
                "missing= | false",
            })
    void matches(String selector, boolean expected) {
        assertThat(LabelQuery.parse(selector).matches(LABELS)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "app=web,tier in (b,a),!x,y | app=web,tier in (a,b),!x,y",
                "b=1,a==2 | a==2,b=1",
                "x notin (z) | x notin (z)",
            })
    void rendersCanonicalStringForm(String selector, String rendered) {
        assertThat(LabelQuery.parse(selector).toString()).isEqualTo(rendered);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "a in x | unable to parse requirement: found 'x', expected: '('",
                "a in (x | unable to parse requirement: found '', expected: ',' or ')'",
                "a=b c | unable to parse requirement: found 'c', expected: ',' or 'end of string'",
                "a b | unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
                "=b | unable to parse requirement: found '=', expected: !, identifier, or 'end of string'",
                "a in () | for 'in', 'notin' operators, values set can't be empty",
                "a=b, | unable to parse requirement: found '', expected: identifier after ','",
                "bad key=x | unable to parse requirement: found 'key', expected: in, notin, =, ==, !=, gt, lt",
                "a=b/c | invalid label value: \"b/c\": at key: \"a\"",
                "-a=b | invalid label key \"-a\"",
                "a>x | for 'Gt', 'Lt' operators, the value must be an integer",
            })
    void rejectsMalformedSelectors(String selector, String message) {
        assertThatThrownBy(() -> LabelQuery.parse(selector))
                .isInstanceOf(SelectorException.class)
                .hasMessageContaining(message);
    }

    @Test
    void emptyAndNullSelectEverything() {
        assertThat(LabelQuery.parse("").matches(Map.of())).isTrue();
        assertThat(LabelQuery.parse(null).isEverything()).isTrue();
    }

    @Test
    void convertsFromAndToLabelSelector() {
        LabelSelector selector = new LabelSelector(
                Map.of("app", "web"),
                List.of(
                        new LabelSelector.Requirement("tier", "In", List.of("frontend", "backend")),
                        new LabelSelector.Requirement("canary", "DoesNotExist", null)));
        LabelQuery query = LabelQuery.from(selector);
        assertThat(query.toString()).isEqualTo("app=web,!canary,tier in (backend,frontend)");
        assertThat(query.matches(LABELS)).isTrue();
        assertThat(query.matches(Map.of("app", "web", "tier", "frontend", "canary", "1")))
                .isFalse();

        LabelSelector back = query.toLabelSelector();
        assertThat(back.matchLabels()).containsExactly(Map.entry("app", "web"));
        assertThat(back.matchExpressions())
                .containsExactly(
                        new LabelSelector.Requirement("canary", "DoesNotExist", null),
                        new LabelSelector.Requirement("tier", "In", List.of("backend", "frontend")));
    }

    @Test
    void nullLabelSelectorSelectsNothingAndEmptySelectsEverything() {
        assertThat(LabelQuery.from(null)).isNull();
        assertThat(LabelQuery.from(new LabelSelector(null, null)).matches(LABELS))
                .isTrue();
    }

    @Test
    void unknownOperatorInLabelSelectorIsRejected() {
        assertThatThrownBy(() -> LabelQuery.from(
                        new LabelSelector(null, List.of(new LabelSelector.Requirement("a", "Gt", List.of("1"))))))
                .hasMessage("\"Gt\" is not a valid label selector operator");
    }
}
