package io.kplane.api.core;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * core/v1 ServiceAccount. Identity only: kplane issues no tokens and enforces no RBAC.
 */
@RecordBuilder
public record ServiceAccount(
        String apiVersion,
        String kind,
        ObjectMeta metadata,
        List<ObjectReference> secrets,
        List<LocalObjectReference> imagePullSecrets,
        Boolean automountServiceAccountToken)
        implements ServiceAccountBuilder.With, KubeObject {
    public static final String API_VERSION = "v1";
    public static final String KIND = "ServiceAccount";

    public ServiceAccount {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public ServiceAccount withMetadata(ObjectMeta metadata) {
        return ServiceAccountBuilder.With.super.withMetadata(metadata);
    }
}
