package io.kplane.apiserver.storage;

/** Query parameters of a list or watch. Null fields were absent. */
public record ListOptions(
        String labelSelector,
        String fieldSelector,
        int limit,
        String continueToken,
        String resourceVersion,
        String resourceVersionMatch) {}
