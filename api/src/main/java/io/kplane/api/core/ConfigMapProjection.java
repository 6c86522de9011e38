package io.kplane.api.core;

import java.util.List;

/** The ConfigMap part of a projected volume. */
public record ConfigMapProjection(String name, List<KeyToPath> items, Boolean optional) {}
