package io.kplane.api.meta;

/**
 * Ordering {@code metadata.resourceVersion}s: "is my write newer than what the cache holds?".
 *
 * <p>Kubernetes' API contract says a resourceVersion is opaque: clients may only compare for equality.
 * kplane guarantees more, and this class is the one place that relies on it: every resourceVersion is
 * the decimal form of the store's single global revision, a bigint that only grows, taken under a lock
 * in commit order (docs/storage.md, "Revisions and why watch order is correct"). So for two versions
 * of one object, the numerically larger is the later write. A version that is not a number (never
 * produced by kplane's store) is not ordered: {@link #isNewer} answers false.
 */
public final class ResourceVersions {
    private ResourceVersions() {}

    /** Whether {@code candidate} is a later write than {@code than}; false when either is not a number. */
    public static boolean isNewer(String candidate, String than) {
        long a = parse(candidate);
        long b = parse(than);
        return a >= 0 && b >= 0 && a > b;
    }

    /** The revision, or -1 when {@code resourceVersion} is null or not a non-negative decimal number. */
    public static long parse(String resourceVersion) {
        if (resourceVersion == null || resourceVersion.isEmpty()) {
            return -1;
        }
        try {
            long v = Long.parseLong(resourceVersion);
            return v < 0 ? -1 : v;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
