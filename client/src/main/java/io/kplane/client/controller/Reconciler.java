package io.kplane.client.controller;

/**
 * Brings the object named by {@code key} (usually {@code namespace/name}) to its desired state.
 * Throwing means "retry with back-off"; returning a {@link Result} says what to do next.
 */
@FunctionalInterface
public interface Reconciler {
    Result reconcile(String key) throws Exception;
}
