package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;

/** One source of a projected volume; exactly one field is set. */
public record VolumeProjection(
        ConfigMapProjection configMap,
        SecretProjection secret,
        DownwardAPIProjection downwardAPI,
        ServiceAccountTokenProjection serviceAccountToken,
        JsonNode clusterTrustBundle) {}
