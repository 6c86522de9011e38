package io.kplane.api.core;

/** A projected ServiceAccount token file ({@code path}); needs the TokenRequest API. */
public record ServiceAccountTokenProjection(String audience, Long expirationSeconds, String path) {}
