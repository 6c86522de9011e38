package io.kplane.api.core;

/** A volume backed by the PersistentVolume bound to the claim {@code claimName} in the pod's namespace. */
public record PersistentVolumeClaimVolumeSource(String claimName, Boolean readOnly) {}
