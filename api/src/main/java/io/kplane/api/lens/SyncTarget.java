package io.kplane.api.lens;

/**
 * The object a {@link SyncRecord} is about (like an Event's {@code involvedObject}).
 *
 * @param resource the plural resource ({@code jobs}, {@code pods})
 */
public record SyncTarget(String apiVersion, String kind, String resource, String namespace, String name, String uid) {}
