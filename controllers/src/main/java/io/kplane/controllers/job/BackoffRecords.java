package io.kplane.controllers.job;

import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-Job pod re-creation back-off (upstream {@code backoff_utils.go}): the number of pod failures
 * since the last success and the finish time of the latest one. The delay before the next pod is
 * {@code base * 2^(failures-1)}, capped, counted from that finish time.
 *
 * <p>Records live in memory only, like upstream's: a restarted controller forgets them and at
 * worst re-creates a pod earlier than the back-off would have.
 */
public final class BackoffRecords {
    /**
     * One Job's record.
     *
     * @param failuresAfterLastSuccess failures that finished after the last success
     * @param lastFailureTime          when the latest of those failures finished, or {@code null}
     */
    public record Record(int failuresAfterLastSuccess, Instant lastFailureTime) {
        static final Record EMPTY = new Record(0, null);

        /** How long pod creation must still wait at {@code now}; zero when it may proceed. */
        public Duration remaining(Instant now, Duration base, Duration max) {
            if (failuresAfterLastSuccess == 0 || lastFailureTime == null) {
                return Duration.ZERO;
            }
            Duration delay = base;
            for (int i = 1; i < failuresAfterLastSuccess; i++) {
                delay = delay.multipliedBy(2);
                if (delay.compareTo(max) >= 0) {
                    delay = max;
                    break;
                }
            }
            if (delay.compareTo(max) > 0) {
                delay = max;
            }
            Duration elapsed = Duration.between(lastFailureTime, now);
            if (delay.compareTo(elapsed) < 0) {
                return Duration.ZERO;
            }
            return delay.minus(elapsed);
        }
    }

    private final Map<String, Record> records = new ConcurrentHashMap<>();

    public Record get(String jobKey) {
        return records.getOrDefault(jobKey, Record.EMPTY);
    }

    /** Stores the record computed during a sync, once the status holding those pods is written. */
    public void put(String jobKey, Record record) {
        if (record.failuresAfterLastSuccess() == 0) {
            records.remove(jobKey);
        } else {
            records.put(jobKey, record);
        }
    }

    public void remove(String jobKey) {
        records.remove(jobKey);
    }

    /**
     * The record after this sync's newly finished pods (not yet counted): a success that finished
     * after some failures resets the count to the failures that finished after it.
     */
    public static Record next(Record previous, List<Pod> newSucceeded, List<Pod> newFailed) {
        if (newSucceeded.isEmpty() && newFailed.isEmpty()) {
            return previous;
        }
        List<Pod> failed = sortedByFinishTime(newFailed);
        if (newSucceeded.isEmpty()) {
            Instant last = finishTime(failed.get(failed.size() - 1));
            return new Record(previous.failuresAfterLastSuccess() + failed.size(), last);
        }
        List<Pod> succeeded = sortedByFinishTime(newSucceeded);
        Instant lastSuccess = finishTime(succeeded.get(succeeded.size() - 1));
        int failures = 0;
        Instant lastFailure = null;
        for (int i = failed.size() - 1; i >= 0; i--) {
            Instant t = finishTime(failed.get(i));
            if (!t.isAfter(lastSuccess)) {
                break;
            }
            if (lastFailure == null) {
                lastFailure = t;
            }
            failures++;
        }
        return new Record(failures, lastFailure);
    }

    private static List<Pod> sortedByFinishTime(List<Pod> pods) {
        List<Pod> copy = new ArrayList<>(pods);
        copy.sort(Comparator.comparing(BackoffRecords::finishTime));
        return copy;
    }

    /**
     * When a pod finished: the latest container finish time if every container terminated, else
     * the Ready=False transition, else deletion time minus grace period, else creation time.
     */
    public static Instant finishTime(Pod pod) {
        Instant containersFinished = allContainersFinishedAt(pod);
        if (containersFinished != null) {
            return containersFinished;
        }
        if (pod.status() != null) {
            PodCondition ready = pod.status().condition(PodCondition.READY);
            if (ready != null && "False".equals(ready.status()) && ready.lastTransitionTime() != null) {
                return ready.lastTransitionTime();
            }
        }
        if (pod.metadata().deletionTimestamp() != null) {
            long grace = pod.metadata().deletionGracePeriodSeconds() == null
                    ? 0
                    : pod.metadata().deletionGracePeriodSeconds();
            return pod.metadata().deletionTimestamp().minusSeconds(grace);
        }
        Instant created = pod.metadata().creationTimestamp();
        return created == null ? Instant.EPOCH : created;
    }

    private static Instant allContainersFinishedAt(Pod pod) {
        if (pod.status() == null || pod.status().containerStatusesOrEmpty().isEmpty()) {
            return null;
        }
        Instant latest = null;
        for (ContainerStatus cs : pod.status().containerStatusesOrEmpty()) {
            if (cs.state() == null
                    || cs.state().terminated() == null
                    || cs.state().terminated().finishedAt() == null) {
                return null;
            }
            Instant t = cs.state().terminated().finishedAt();
            if (latest == null || t.isAfter(latest)) {
                latest = t;
            }
        }
        return latest;
    }
}
