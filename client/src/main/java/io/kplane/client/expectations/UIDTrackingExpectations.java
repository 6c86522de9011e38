package io.kplane.client.expectations;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Job controller's {@code uidTrackingExpectations}: for each job key, the UIDs of pods whose
 * tracking-finalizer removal was requested but not yet observed. While a UID is listed, the job
 * controller must not count that pod's terminal state again; observing the pod without the
 * finalizer (or its deletion) removes it.
 */
public final class UIDTrackingExpectations {
    private static final Logger log = LoggerFactory.getLogger(UIDTrackingExpectations.class);

    private final ConcurrentHashMap<String, Set<String>> byKey = new ConcurrentHashMap<>();

    /** Records that finalizer removal was requested for these pod UIDs of {@code key}. */
    public void expectFinalizersRemoved(String key, Collection<String> podUids) {
        byKey.compute(key, (k, set) -> {
            Set<String> next = set == null ? new HashSet<>() : new HashSet<>(set);
            next.addAll(podUids);
            return Set.copyOf(next);
        });
        log.debug("expecting finalizer removal for {} pods of {}", podUids.size(), key);
    }

    /** The informer saw that pod {@code podUid} no longer has the finalizer (or is gone). */
    public void finalizerRemovalObserved(String key, String podUid) {
        byKey.computeIfPresent(key, (k, set) -> {
            if (!set.contains(podUid)) {
                return set;
            }
            Set<String> next = new HashSet<>(set);
            next.remove(podUid);
            return next.isEmpty() ? null : Set.copyOf(next);
        });
    }

    /** An immutable copy of the UIDs still expected for {@code key} (empty if none). */
    public Set<String> expectedUids(String key) {
        return byKey.getOrDefault(key, Set.of());
    }

    public void deleteExpectations(String key) {
        byKey.remove(key);
    }
}
