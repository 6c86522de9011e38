package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;

/** One file of a downwardAPI volume: a pod field ({@code fieldRef}) or a resource ({@code resourceFieldRef}). */
public record DownwardAPIVolumeFile(
        String path, ObjectFieldSelector fieldRef, JsonNode resourceFieldRef, Integer mode) {}
