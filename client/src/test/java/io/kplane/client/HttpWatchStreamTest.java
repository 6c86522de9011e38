package io.kplane.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.api.core.Pod;
import io.kplane.api.meta.WatchEvent;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The watch reader decodes a line as the server writes it in one pass, straight into the typed
 * object; every other shape goes through a tree as before. Both must give the same events.
 */
class HttpWatchStreamTest {
    private static final String POD =
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default","uid":"u-1",\
            "creationTimestamp":"2026-11-25T10:00:00Z","labels":{"app":"a"},"resourceVersion":"42",\
            "ownerReferences":[{"apiVersion":"batch/v1","kind":"Job","name":"j","uid":"j-1","controller":true}]},\
            "spec":{"containers":[{"name":"c","image":"busybox","command":["sh","-c","true"],\
            "resources":{"limits":{"cpu":"1"}}}],"restartPolicy":"Never","nodeName":"node-1",\
            "terminationGracePeriodSeconds":30,"securityContext":{"runAsUser":1000},"unknownField":{"x":[1,2.5]}},\
            "status":{"phase":"Running","startTime":"2026-11-25T10:00:01Z",\
            "conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-25T10:00:02.123456Z"}]}}""";

    @Test
    void theServersLinesDecodeAsThroughATree() {
        List<String> lines = List.of(
                "{\"type\":\"ADDED\",\"object\":" + POD + "}",
                "{\"type\":\"MODIFIED\",\"object\":" + POD + ",\"extra\":{\"a\":[1]}}",
                "{\"type\":\"DELETED\",\"object\":null}",
                "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
                        + "\"metadata\":{\"resourceVersion\":\"77\"}}}",
                "{\"object\":" + POD + ",\"type\":\"ADDED\"}",
                "{\"type\":\"ADDED\",\"type\":\"MODIFIED\",\"object\":" + POD + "}",
                "{\"type\":7,\"object\":" + POD + "}",
                "{\"type\":\"ADDED\"}",
                "{}",
                "[1,2]");
        List<WatchEvent<Pod>> events = new ArrayList<>();
        List<WatchEvent<Pod>> viaTree = new ArrayList<>();
        for (String line : lines) {
            events.add(stream(line).next());
            viaTree.add(stream(line).decodeViaTree(line));
        }

        assertThat(events).isEqualTo(viaTree);
        assertThat(events.get(0).type()).isEqualTo("ADDED");
        assertThat(events.get(0).object().nodeName()).isEqualTo("node-1");
        assertThat(events.get(0).object().metadata().resourceVersion()).isEqualTo("42");
        assertThat(events.get(4).type()).isEqualTo("ADDED");
        assertThat(events.get(5).type()).isEqualTo("MODIFIED");
    }

    @Test
    void anErrorEventIsTheServersStatus() {
        String line =
                "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                        + "\"message\":\"too old resource version: 1 (5)\",\"reason\":\"Expired\",\"code\":410}}";

        assertThatThrownBy(() -> stream(line).next())
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo(410));
    }

    @Test
    void malformedAndUndecodableLinesSaySo() {
        assertThatThrownBy(() ->
                        stream("{\"type\":\"ADDED\",\"object\":{\"metadata\":").next())
                .isInstanceOf(KubeClientException.class)
                .hasMessageContaining("malformed watch event");
        assertThatThrownBy(() -> stream("{\"type\":\"ADDED\",\"object\":{\"metadata\":[1]}}")
                        .next())
                .isInstanceOf(KubeClientException.class)
                .hasMessageContaining("cannot decode watch event");
    }

    private static HttpWatchStream<Pod> stream(String line) {
        return new HttpWatchStream<>(
                new ByteArrayInputStream((line + "\n").getBytes(StandardCharsets.UTF_8)),
                Pod.class,
                "http://test/pods");
    }
}
