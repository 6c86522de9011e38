package io.kplane.controllers;

import io.kplane.api.core.Node;
import io.kplane.api.core.NodeBuilder;
import io.kplane.api.core.NodeCondition;
import io.kplane.api.core.NodeStatusBuilder;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.client.KubeClient;
import io.kplane.controllers.runtime.EventWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** Helpers for the scheduler and node-lifecycle integration tests. */
public final class ControllerTestSupport {
    private ControllerTestSupport() {}

    /** An event writer that remembers {@code reason: message} lines instead of writing Events. */
    public static final class RememberingEvents extends EventWriter {
        public final List<String> lines = new CopyOnWriteArrayList<>();

        public RememberingEvents() {
            super(null, null, "test", "test");
        }

        @Override
        public void record(KubeObject involved, String type, String reason, String message) {
            lines.add(involved.key() + " " + reason + ": " + message);
        }
    }

    /** Registers a node the way a kubelet does (create, then a Ready status). */
    public static Node readyNode(KubeClient client, String name, Map<String, String> labels, int maxPods) {
        Node created = client.nodes()
                .create(NodeBuilder.builder()
                        .metadata(ObjectMetaBuilder.builder()
                                .name(name)
                                .labels(labels)
                                .build())
                        .build());
        Instant now = Instant.now();
        return client.nodes()
                .updateStatus(created.withStatus(NodeStatusBuilder.builder()
                        .allocatable(Map.of("pods", Integer.toString(maxPods)))
                        .capacity(Map.of("pods", Integer.toString(maxPods)))
                        .conditions(List.of(new NodeCondition(
                                "Ready", "True", now, now, "KubeletReady", "kubelet is posting ready status")))
                        .build()));
    }
}
