package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.meta.ResourceVersions;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Job as the Job controller's own last status write returned it, per Job key, kept only while the
 * informer's cache is older than that write.
 *
 * <p>A sync reads its Job from the cache. When it starts right after the previous sync of the same Job
 * (a pod finishing alone is synced at once, see {@link PodEventBatching}) the informer may not have
 * delivered that sync's status write yet: the status draft is then built on the older status and sent
 * with the older resourceVersion, the API server answers 409 Conflict, and the whole sync is redone
 * after a back-off. The write's answer is the server's Job at that revision (spec and status), so when
 * it is newer than the cache it is the better base: same UID, higher resourceVersion. Anything else
 * (the cache caught up, another writer's newer revision, a new Job under the same name) uses the cache,
 * as upstream always does. Pods still come from the pod cache; finalizer expectations cover its lag as
 * they do upstream.
 */
final class OwnStatusWrites {
    private final Map<String, Job> written = new ConcurrentHashMap<>();

    /** The base for a sync: {@code cached}, or this controller's own later write of the same Job. */
    Job newestOf(String key, Job cached) {
        Job own = written.get(key);
        if (own == null) {
            return cached;
        }
        if (Objects.equals(own.metadata().uid(), cached.metadata().uid())
                && ResourceVersions.isNewer(
                        own.metadata().resourceVersion(), cached.metadata().resourceVersion())) {
            return own;
        }
        written.remove(key, own); // the cache has caught up (or it is another Job now)
        return cached;
    }

    /** After a sync: keeps {@code after} when the sync wrote a newer revision than its base {@code before}. */
    void remember(String key, Job before, Job after) {
        if (after != before
                && Objects.equals(after.metadata().uid(), before.metadata().uid())
                && ResourceVersions.isNewer(
                        after.metadata().resourceVersion(), before.metadata().resourceVersion())) {
            written.put(key, after);
        }
    }

    /** The Job is gone. */
    void forget(String key) {
        written.remove(key);
    }

    /** For tests: how many Jobs have a remembered write. */
    int size() {
        return written.size();
    }
}
