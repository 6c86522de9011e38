package io.kplane.api.coordination;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * coordination.k8s.io/v1 Lease: node heartbeats and leader election.
 */
@RecordBuilder
public record Lease(String apiVersion, String kind, ObjectMeta metadata, LeaseSpec spec)
        implements LeaseBuilder.With, KubeObject {
    public static final String API_VERSION = "coordination.k8s.io/v1";
    public static final String KIND = "Lease";
    /** Namespace of the node heartbeat Leases, one per node, named after it. */
    public static final String NODE_LEASE_NAMESPACE = "kube-node-lease";

    public Lease {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public Lease withMetadata(ObjectMeta metadata) {
        return LeaseBuilder.With.super.withMetadata(metadata);
    }
}
