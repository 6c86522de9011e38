package io.kplane.api.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FieldQueryTest {
    private static final JsonNode POD = Json.tree(
            """
            {"metadata":{"name":"web-1","namespace":"prod"},
             "spec":{"nodeName":"node-a","restartPolicy":"Never"},
             "status":{"phase":"Running","podIP":"10.0.0.3"}}""");
    private static final JsonNode UNSCHEDULED_POD =
            Json.tree("""
            {"metadata":{"name":"web-2","namespace":"prod"},"status":{"phase":"Pending"}}""");
    private static final JsonNode EVENT = Json.tree(
            """
            {"metadata":{"name":"e1","namespace":"prod"},"involvedObject":{"kind":"Job","name":"pi","uid":"u1"},
             "reason":"SuccessfulCreate","type":"Normal","source":{"component":"job-controller"}}""");
    private static final JsonNode JOB =
            Json.tree("""
            {"metadata":{"name":"pi","namespace":"prod"},"status":{"succeeded":2}}""");
    private static final JsonNode NODE = Json.tree("""
            {"metadata":{"name":"node-a"},"spec":{}}""");

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "pods | metadata.name=web-1 | POD | true",
                "pods | metadata.name==web-1 | POD | true",
                "pods | metadata.name!=web-1 | POD | false",
                "pods | metadata.namespace=prod,status.phase=Running | POD | true",
                "pods | spec.nodeName=node-a | POD | true",
                "pods | spec.nodeName= | UNSCHEDULED_POD | true",
                "pods | spec.nodeName!= | POD | true",
                "pods | spec.nodeName= | POD | false",
                "pods | status.podIP=10.0.0.3 | POD | true",
                "pods | spec.hostNetwork=false | POD | true",
                "events | involvedObject.kind=Job,involvedObject.name=pi | EVENT | true",
                "events | source=job-controller | EVENT | true",
                "events | reason=Failed | EVENT | false",
                "events | involvedObject.namespace= | EVENT | true",
                "jobs | status.successful=2 | JOB | true",
                "jobs | status.successful=0 | JOB | false",
                "nodes | spec.unschedulable=false | NODE | true",
                "nodes | metadata.namespace= | NODE | true",
                "pods | '' | POD | true",
            })
    void matches(String resource, String selector, String object, boolean expected) {
        JsonNode obj =
                switch (object) {
                    case "POD" -> POD;
                    case "UNSCHEDULED_POD" -> UNSCHEDULED_POD;
                    case "EVENT" -> EVENT;
                    case "JOB" -> JOB;
                    default -> NODE;
                };
        ResourceType type = ResourceTypes.lookup(resource).orElseThrow();
        assertThat(FieldQuery.parse(selector, type).matches(obj)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "pods | spec.foo=x | field label not supported: spec.foo",
                "jobs | status.phase=Running | field label not supported: status.phase",
                "cronjobs | spec.schedule=x | field label not supported: spec.schedule",
                "pods | metadata.name | invalid selector: 'metadata.name'; can't understand 'metadata.name'",
                "pods | metadata.name=a,foo | invalid selector: 'foo'; can't understand 'foo'",
            })
    void rejects(String resource, String selector, String message) {
        ResourceType type = ResourceTypes.lookup(resource).orElseThrow();
        assertThatThrownBy(() -> FieldQuery.parse(selector, type))
                .isInstanceOf(SelectorException.class)
                .hasMessage(message);
    }

    @Test
    void escapedValuesAndRequiredValue() {
        FieldQuery q = FieldQuery.parse("metadata.name=a\\,b", ResourceTypes.PODS);
        assertThat(q.requiredValue("metadata.name")).contains("a,b");
        assertThat(q.toString()).isEqualTo("metadata.name=a\\,b");
        assertThat(FieldQuery.parse("metadata.name!=x", ResourceTypes.PODS).requiredValue("metadata.name"))
                .isEmpty();
    }
}
