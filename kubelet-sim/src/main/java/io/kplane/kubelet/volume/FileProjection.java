package io.kplane.kubelet.volume;

/** The content and permission bits of one file of a configMap/secret/downwardAPI/projected volume. */
public record FileProjection(byte[] data, int mode) {}
