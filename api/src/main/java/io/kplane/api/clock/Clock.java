package io.kplane.api.clock;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * kplane.io/v1 Clock: the cluster's time, one cluster-scoped object named {@value #CLUSTER}.
 * {@code spec} is what the user asks for (a mode and, for a jump, a time or offset); {@code status}
 * is written by the API server only: the anchor pair and rate every component computes cluster time
 * from (see {@link ClusterTime}), so all of them read the same time from the same object.
 */
@RecordBuilder
public record Clock(String apiVersion, String kind, ObjectMeta metadata, ClockSpec spec, ClockStatus status)
        implements ClockBuilder.With, KubeObject {
    public static final String API_VERSION = "kplane.io/v1";
    public static final String KIND = "Clock";
    /** The one Clock every component follows. */
    public static final String CLUSTER = "cluster";

    public Clock {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public Clock withMetadata(ObjectMeta metadata) {
        return ClockBuilder.With.super.withMetadata(metadata);
    }

    /** The time this object describes; real time when it has no status yet. */
    public ClusterTime clusterTime() {
        return status == null ? ClusterTime.REAL : ClusterTime.of(status);
    }
}
