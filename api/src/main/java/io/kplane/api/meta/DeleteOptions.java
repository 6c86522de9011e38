package io.kplane.api.meta;

import java.util.List;

/** Body of a DELETE. {@code propagationPolicy}: Orphan, Background or Foreground. */
public record DeleteOptions(
        String apiVersion,
        String kind,
        Long gracePeriodSeconds,
        Preconditions preconditions,
        String propagationPolicy,
        Boolean orphanDependents,
        List<String> dryRun) {

    public static DeleteOptions propagation(String policy) {
        return new DeleteOptions(null, null, null, null, policy, null, null);
    }

    public static DeleteOptions gracePeriod(long seconds) {
        return new DeleteOptions(null, null, seconds, null, null, null, null);
    }

    public record Preconditions(String uid, String resourceVersion) {}
}
