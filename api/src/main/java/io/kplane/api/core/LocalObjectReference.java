package io.kplane.api.core;

/** core/v1 LocalObjectReference: a name in the same namespace. */
public record LocalObjectReference(String name) {}
