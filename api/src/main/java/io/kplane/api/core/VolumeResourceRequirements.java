package io.kplane.api.core;

import java.util.Map;

/** core/v1 VolumeResourceRequirements: quantities as their canonical strings ({@code 1Gi}). */
public record VolumeResourceRequirements(Map<String, String> limits, Map<String, String> requests) {}
