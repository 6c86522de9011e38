package io.kplane.kubelet.pod;

import io.kplane.kubelet.logs.CriLogWriter;
import io.kplane.kubelet.runtime.RunningContainer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What one pod worker knows about its pod: the persisted {@link PodRecord} and the handles of the
 * container attempts it follows. Touched only by the worker's thread (no locking).
 *
 * <p>The no-double-run invariant lives in the pairing of the two: a container whose record says an
 * attempt is {@code starting} or {@code running} but that has no handle in {@link #running} is an
 * attempt in an <em>unknown state</em> (the kubelet restarted, or the engine failed after the attempt
 * was recorded). {@link AttemptRecovery} must re-attach to it or kill it before {@link ContainerStarter}
 * may start that container again.
 */
final class PodState {
    final WorkerSettings settings;
    final String uid;
    PodRecord record;
    /** Handles of the attempts this worker follows, by container name. */
    final Map<String, RunningContainer> running = new HashMap<>();

    final Map<String, CriLogWriter> writers = new HashMap<>();
    /** Containers already asked to stop (a second SIGTERM would re-run a trap). */
    final Set<String> stopRequested = new HashSet<>();

    boolean stopping;
    io.kplane.api.core.PodStatus lastReported;
    io.kplane.api.core.Pod lastWritten;
    /** Terminal with nothing left to run: the thread may exit until the pod changes again. */
    volatile boolean idle;

    volatile boolean terminal;
    volatile boolean finished;

    PodState(WorkerSettings settings, String uid) {
        this.settings = settings;
        this.uid = uid;
    }

    /** True if the record says an attempt of {@code r} may be running but this worker has no handle on it. */
    boolean unknown(ContainerRecord r) {
        return (r.starting || r.running) && !running.containsKey(r.name);
    }

    boolean anyUnknown() {
        return record != null && record.all().stream().anyMatch(this::unknown);
    }

    void persist() {
        settings.stateStore().save(record);
        terminal = record.terminalPhase != null;
    }

    ContainerRecord findRecord(String name) {
        return record.all().stream()
                .filter(r -> r.name.equals(name))
                .findFirst()
                .orElseThrow();
    }

    void closeWriter(String name) {
        CriLogWriter w = writers.remove(name);
        if (w != null) {
            settings.logs().close(w);
        }
    }
}
