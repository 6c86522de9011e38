package io.kplane.api.core;

import java.util.List;

/** The Secret part of a projected volume. */
public record SecretProjection(String name, List<KeyToPath> items, Boolean optional) {}
