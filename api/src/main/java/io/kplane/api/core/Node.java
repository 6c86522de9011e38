package io.kplane.api.core;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * core/v1 Node (cluster-scoped).
 */
@RecordBuilder
public record Node(String apiVersion, String kind, ObjectMeta metadata, NodeSpec spec, NodeStatus status)
        implements NodeBuilder.With, KubeObject {
    public static final String API_VERSION = "v1";
    public static final String KIND = "Node";

    public Node {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public Node withMetadata(ObjectMeta metadata) {
        return NodeBuilder.With.super.withMetadata(metadata);
    }

    /** Whether the node's Ready condition is True. */
    public boolean isReady() {
        NodeCondition ready = status == null ? null : status.condition(NodeCondition.READY);
        return ready != null && "True".equals(ready.status());
    }

    public boolean isUnschedulable() {
        return spec != null && Boolean.TRUE.equals(spec.unschedulable());
    }
}
