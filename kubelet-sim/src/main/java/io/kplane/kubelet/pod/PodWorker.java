package io.kplane.kubelet.pod;

import io.kplane.api.core.Pod;
import io.kplane.api.meta.ResourceVersions;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one pod on its own thread: the thread and wake-up machinery around {@link PodSync}, which does
 * one level-triggered pass. The worker wakes up on pod updates, container exits and timers (back-off,
 * active deadline, grace period, a retry after a failure), and its thread exits while the pod is
 * terminal with nothing left to run.
 *
 * <p>The parts, each reviewable on its own: {@link PodSync} (the pass), {@link AttemptRecovery}
 * (record from disk, attempts in unknown state re-attached or killed), {@link ContainerStarter}
 * (back-offs, recording an attempt before starting it) and {@link PodTermination} (stopping and
 * cleaning up). A pass that fails half-way is simply run again: whatever it recorded as started is
 * resolved by the recovery before anything else is started, so a failure never leads to a second
 * run of the same container next to the first.
 */
public final class PodWorker implements WakeUps {
    private static final Logger log = LoggerFactory.getLogger(PodWorker.class);
    /** How soon a pass that failed is run again. */
    static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(1);

    private final Clock clock;
    private final String uid;
    private final Object lock = new Object();
    private final PodState state;
    private final PodSync podSync;
    private Pod desired;
    private boolean removedFromApi;
    private boolean wake = true;
    private boolean threadRunning;
    private Thread thread;
    private Clock.Timer timer;
    private Instant timerAt;
    /** The resourceVersion of the newest pod copy a pass has completed over (tests wait on it). */
    private volatile String lastSyncedResourceVersion;

    public PodWorker(WorkerSettings settings, Pod pod) {
        this.clock = settings.clock();
        this.uid = pod.metadata().uid();
        this.desired = pod;
        this.state = new PodState(settings, uid);
        this.podSync = new PodSync(state, this, this::cancelTimer);
    }

    public String uid() {
        return uid;
    }

    /** The resourceVersion of the newest copy of the pod a pass has completed over, or null before one. */
    public String lastSyncedResourceVersion() {
        return lastSyncedResourceVersion;
    }

    public boolean isFinished() {
        return state.finished;
    }

    /** Whether the pod still counts against the node's pod capacity. */
    public boolean isActive() {
        return !state.finished && !state.terminal;
    }

    public void start() {
        synchronized (lock) {
            ensureThread();
        }
    }

    /** Starts the worker thread unless it runs; called with the lock held. */
    private void ensureThread() {
        if (threadRunning || state.finished) {
            return;
        }
        threadRunning = true;
        thread = DaemonThreads.newThread(
                "pod-" + desired.metadata().namespace() + "-"
                        + desired.metadata().name(),
                this::loop);
        thread.start();
    }

    /** A newer version of the pod from the watch. */
    public void update(Pod pod) {
        synchronized (lock) {
            desired = pod;
            wake = true;
            lock.notifyAll();
            ensureThread();
        }
    }

    /** The pod is gone from the API server (force-deleted): kill everything at once. */
    public void removed() {
        synchronized (lock) {
            removedFromApi = true;
            wake = true;
            lock.notifyAll();
            ensureThread();
        }
    }

    @Override
    public void wakeUp() {
        synchronized (lock) {
            wake = true;
            lock.notifyAll();
            ensureThread();
        }
    }

    /** Kubelet shutdown: leave containers running (docker) and stop the thread. */
    public void abandon() {
        synchronized (lock) {
            state.finished = true;
            lock.notifyAll();
        }
    }

    private void loop() {
        while (true) {
            Pod pod;
            boolean removed;
            synchronized (lock) {
                if (!wake && (state.finished || state.idle)) {
                    // a finished pod needs no thread; the next update starts one again
                    threadRunning = false;
                    return;
                }
                while (!wake && !state.finished) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        threadRunning = false;
                        return;
                    }
                }
                if (state.finished) {
                    threadRunning = false;
                    return;
                }
                wake = false;
                pod = desired;
                removed = removedFromApi;
            }
            io.kplane.client.time.ActivityTracker.begin(); // a pod mid-sync ends no clock step
            try {
                podSync.sync(pod, removed);
                lastSyncedResourceVersion = pod.metadata().resourceVersion();
            } catch (RuntimeException e) {
                // safe to run again: an attempt recorded before the failure is resolved, never restarted
                log.warn(
                        "sync of pod {}/{} failed, retrying in {}s: {}",
                        pod.metadata().namespace(),
                        pod.metadata().name(),
                        RETRY_AFTER_FAILURE.toSeconds(),
                        e.toString());
                wakeAt(clock.now().plus(RETRY_AFTER_FAILURE));
            } finally {
                io.kplane.client.time.ActivityTracker.end();
            }
        }
    }

    @Override
    public void wakeAt(Instant at) {
        synchronized (lock) {
            if (timer != null && timerAt != null && !timerAt.isAfter(at) && timerAt.isAfter(clock.now())) {
                return; // an earlier wake-up is already set
            }
            if (timer != null) {
                timer.cancel();
            }
            timerAt = at;
            timer = clock.schedule(Duration.between(clock.now(), at), this::wakeUp);
        }
    }

    private void cancelTimer() {
        synchronized (lock) {
            if (timer != null) {
                timer.cancel();
            }
        }
    }

    /**
     * The newer of the informer's copy and the one our last write returned: the watch lags behind our
     * own writes, and writing from a stale copy would only earn a 409 Conflict and a re-read.
     */
    static Pod newer(Pod fromWatch, Pod written) {
        if (written == null) {
            return fromWatch;
        }
        return ResourceVersions.isNewer(
                        written.metadata().resourceVersion(),
                        fromWatch.metadata().resourceVersion())
                ? fromWatch
                        .withMetadata(fromWatch
                                .metadata()
                                .withResourceVersion(written.metadata().resourceVersion()))
                        .withStatus(written.status())
                : fromWatch;
    }
}
