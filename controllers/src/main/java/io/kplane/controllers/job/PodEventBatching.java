package io.kplane.controllers.job;

import io.kplane.client.time.Clock;
import io.kplane.client.workqueue.DelayingQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How pod events turn into Job syncs: upstream's {@code syncJobBatchPeriod} for bursts, without
 * delaying a lone pod that finishes.
 *
 * <p>Upstream enqueues every pod event of a Job with {@code AddAfter(key, syncJobBatchPeriod)} (1 s):
 * the events of a burst collapse into about one sync per period, and so does a lone event, which
 * then waits a whole period for nothing: a trivial Job's pod succeeds in tens of milliseconds and
 * its Job became {@code Complete} one second later.
 *
 * <p>Here:
 * <ul>
 *   <li>{@link #podEvent} (created, bound, running, ready, finalizer removed, deleted): batched
 *       exactly as upstream, {@code addAfter(key, period)}.</li>
 *   <li>{@link #podFinished} (a pod of the Job reached Succeeded or Failed — the events that change
 *       the Job's counters and conditions): the first one after a quiet period syncs at once and opens
 *       a window of one period; later ones inside the window are batched to the window's end, and that
 *       deferred sync opens the next window. So a burst of finishing pods is still synced about once per
 *       period (a Job with parallelism 200 and a 1 s period still completes about 200 pods/s, as
 *       upstream), while a pod finishing alone is counted at once.</li>
 * </ul>
 * Times are the cluster clock's, like the queue's delays.
 */
final class PodEventBatching {
    private final Duration period;
    private final Clock clock;
    private final DelayingQueue<String> queue;
    /** Per Job key: the end of its current window and whether a sync was deferred to that end. */
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    private record Window(Instant end, boolean deferred) {}

    PodEventBatching(Duration period, Clock clock, DelayingQueue<String> queue) {
        this.period = period;
        this.clock = clock;
        this.queue = queue;
    }

    /** Any pod event but a pod finishing: batched for one period, as upstream. */
    void podEvent(String jobKey) {
        queue.addAfter(jobKey, period);
    }

    /** A pod of the Job reached a terminal phase: at once after a quiet period, else batched. */
    void podFinished(String jobKey) {
        if (period.isZero() || period.isNegative()) {
            queue.add(jobKey);
            return;
        }
        Instant now = clock.now();
        Duration[] delay = new Duration[1];
        windows.compute(jobKey, (k, w) -> {
            if (w != null && w.deferred() && !now.isBefore(w.end())) {
                // the deferred sync ran at the window's end and opened the next window
                w = new Window(w.end().plus(period), false);
            }
            if (w == null || !now.isBefore(w.end())) {
                delay[0] = Duration.ZERO; // quiet: lead
                return new Window(now.plus(period), false);
            }
            delay[0] = Duration.between(now, w.end());
            return new Window(w.end(), true);
        });
        if (delay[0].isZero()) {
            queue.add(jobKey);
        } else {
            queue.addAfter(jobKey, delay[0]);
        }
    }

    /** The Job is gone: drop its window. */
    void forget(String jobKey) {
        windows.remove(jobKey);
    }

    /** For tests: how many Jobs have a window. */
    int trackedJobs() {
        return windows.size();
    }
}
