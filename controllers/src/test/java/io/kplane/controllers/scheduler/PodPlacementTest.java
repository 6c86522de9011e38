package io.kplane.controllers.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.core.Node;
import io.kplane.api.core.NodeBuilder;
import io.kplane.api.core.NodeCondition;
import io.kplane.api.core.NodeStatusBuilder;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodBuilder;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodPlacementTest {

    static Node node(String name, String ready, Map<String, String> labels, int maxPods) {
        return NodeBuilder.builder()
                .metadata(ObjectMetaBuilder.builder().name(name).labels(labels).build())
                .status(NodeStatusBuilder.builder()
                        .allocatable(Map.of("pods", Integer.toString(maxPods)))
                        .conditions(List.of(new NodeCondition("Ready", ready, null, null, null, null)))
                        .build())
                .build();
    }

    static Pod pod(Map<String, String> nodeSelector) {
        return PodBuilder.builder()
                .metadata(ObjectMeta.named("default", "p"))
                .spec(PodSpecBuilder.builder().nodeSelector(nodeSelector).build())
                .build();
    }

    @Test
    void picksTheLeastLoadedReadyNodeThenByName() {
        var nodes = List.of(
                node("b", "True", Map.of(), 110), node("a", "True", Map.of(), 110), node("c", "True", Map.of(), 110));
        assertThat(PodPlacement.place(pod(null), nodes, Map.of("a", 3, "b", 1, "c", 1))
                        .node())
                .isEqualTo("b");
        assertThat(PodPlacement.place(pod(null), nodes, Map.of()).node()).isEqualTo("a");
    }

    @Test
    void selectorMismatchMessageCountsNodesLikeKubeScheduler() {
        var nodes = List.of(node("a", "True", Map.of("disk", "hdd"), 110), node("b", "True", Map.of(), 110));
        PlacementDecision d = PodPlacement.place(pod(Map.of("disk", "ssd")), nodes, Map.of());
        assertThat(d.isScheduled()).isFalse();
        assertThat(d.unschedulableMessage())
                .isEqualTo("0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.");
    }

    @Test
    void respectsPodCapacityAndReadiness() {
        var nodes = List.of(
                node("full", "True", Map.of(), 2),
                node("down", "Unknown", Map.of(), 110),
                node("starting", "False", Map.of(), 110));
        PlacementDecision d = PodPlacement.place(pod(null), nodes, Map.of("full", 2));
        assertThat(d.unschedulableMessage())
                .isEqualTo("0/3 nodes are available: 1 Too many pods, "
                        + "1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, "
                        + "1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }.");
        assertThat(PodPlacement.place(
                                pod(Map.of("disk", "ssd")),
                                List.of(node("x", "True", Map.of("disk", "ssd"), 2)),
                                Map.of("x", 1))
                        .node())
                .isEqualTo("x");
    }

    @Test
    void noNodesAtAll() {
        assertThat(PodPlacement.place(pod(null), List.of(), Map.of()).unschedulableMessage())
                .isEqualTo("no nodes available to schedule pods");
    }
}
