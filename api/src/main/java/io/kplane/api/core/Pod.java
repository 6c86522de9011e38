package io.kplane.api.core;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * core/v1 Pod.
 */
@RecordBuilder
public record Pod(String apiVersion, String kind, ObjectMeta metadata, PodSpec spec, PodStatus status)
        implements PodBuilder.With, KubeObject {
    public static final String API_VERSION = "v1";
    public static final String KIND = "Pod";

    public Pod {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public Pod withMetadata(ObjectMeta metadata) {
        return PodBuilder.With.super.withMetadata(metadata);
    }

    /** {@code status.phase}, or {@code null} when no status was reported yet. */
    public String phase() {
        return status == null ? null : status.phase();
    }

    /** Succeeded or Failed: the pod will not run again. */
    public boolean isTerminal() {
        String phase = phase();
        return PodStatus.SUCCEEDED.equals(phase) || PodStatus.FAILED.equals(phase);
    }

    /** {@code spec.nodeName}, or {@code null} while unscheduled. */
    public String nodeName() {
        return spec == null ? null : spec.nodeName();
    }

    /** Whether the pod's Ready condition is True. */
    public boolean isReady() {
        PodCondition ready = status == null ? null : status.condition(PodCondition.READY);
        return ready != null && ready.isTrue();
    }
}
