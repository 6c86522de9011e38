package io.kplane.api.core;

import java.time.Instant;

/** core/v1 PersistentVolumeStatus. */
public record PersistentVolumeStatus(String phase, String message, String reason, Instant lastPhaseTransitionTime) {}
