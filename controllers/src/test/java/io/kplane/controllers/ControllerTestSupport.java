package io.kplane.controllers;

import io.kplane.api.coordination.Lease;
import io.kplane.api.coordination.LeaseSpec;
import io.kplane.api.core.Node;
import io.kplane.api.core.NodeBuilder;
import io.kplane.api.core.NodeCondition;
import io.kplane.api.core.NodeStatusBuilder;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.client.KubeClient;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Helpers for the scheduler and node-lifecycle integration tests. */
public final class ControllerTestSupport {
    private ControllerTestSupport() {}

    /** Creates or renews {@code node}'s Lease in kube-node-lease (40 s), as a kubelet's heartbeat does. */
    public static void renewNodeLease(KubeClient client, String node) {
        var leases = client.leases().inNamespace("kube-node-lease");
        Instant now = Instant.now();
        var existing = leases.find(node);
        if (existing.isEmpty()) {
            leases.create(new Lease(
                    null,
                    null,
                    ObjectMeta.named("kube-node-lease", node),
                    new LeaseSpec(node, 40, now, now, 0, null, null)));
        } else {
            leases.update(existing.get().withSpec(existing.get().spec().withRenewTime(now)));
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
