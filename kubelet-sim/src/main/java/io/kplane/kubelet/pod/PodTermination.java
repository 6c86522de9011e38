package io.kplane.kubelet.pod;

import io.kplane.api.core.EventType;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a pod's containers (deletion with its grace period, a terminal decision such as the active
 * deadline, or a force delete) and, once none runs, records the terminal phase, finishes a deletion
 * and removes what the pod left on the node.
 */
final class PodTermination {
    private static final Logger log = LoggerFactory.getLogger(PodTermination.class);

    private final PodState state;
    private final WorkerSettings settings;
    private final Consumer<Pod> report;
    private final Runnable onCleanedUp;

    PodTermination(PodState state, Consumer<Pod> report, Runnable onCleanedUp) {
        this.state = state;
        this.settings = state.settings;
        this.report = report;
        this.onCleanedUp = onCleanedUp;
    }

    /** Deletion or a terminal decision (deadline): stop containers, report, and finish a deletion. */
    void terminate(Pod pod, boolean deleting) {
        Duration grace = Duration.ofSeconds(Optional.ofNullable(pod.metadata().deletionGracePeriodSeconds())
                .or(() -> Optional.ofNullable(pod.spec().terminationGracePeriodSeconds()))
                .orElse(30L));
        if (!state.stopping && !state.running.isEmpty()) {
            state.stopping = true;
            state.running.keySet().forEach(name -> settings.events()
                    .event(pod, EventType.NORMAL, "Killing", "Stopping container " + name));
            log.info(
                    "stopping pod {}/{} ({} containers, grace {}s)",
                    pod.metadata().namespace(),
                    pod.metadata().name(),
                    state.running.size(),
                    grace.toSeconds());
        }
        killAll(grace);
        for (ContainerRecord r : state.record.all()) {
            if (!r.running && r.waitingReason != null) {
                r.waitingReason = null;
                r.waitingMessage = null;
            }
        }
        if (!state.running.isEmpty()) {
            report.accept(pod);
            return;
        }
        if (state.record.terminalPhase == null) {
            boolean allSucceeded = !state.record.containers.isEmpty()
                    && state.record.containers.stream().allMatch(ContainerRecord::succeeded);
            state.record.terminalPhase =
                    allSucceeded && !state.record.deadlineExceeded ? PodStatus.SUCCEEDED : PodStatus.FAILED;
            state.persist();
        }
        report.accept(pod);
        if (deleting) {
            settings.statusWriter().finishDeletion(pod);
            cleanUp(pod);
        } else {
            state.idle = true;
        }
    }

    /** The pod is gone from the API server: kill everything at once, clean up once nothing runs. */
    void removed(Pod pod) {
        killAll(Duration.ZERO);
        if (state.running.isEmpty()) {
            cleanUp(pod);
        }
    }

    /** Asks each running container to stop once (a second SIGTERM would re-run a trap); grace 0 always kills. */
    private void killAll(Duration grace) {
        for (var e : state.running.entrySet()) {
            if (grace.isZero() || !state.stopRequested.contains(e.getKey())) {
                e.getValue().stop(grace);
                // only once the runtime took the request: a failed stop is asked again on the next pass
                state.stopRequested.add(e.getKey());
            }
        }
    }

    private void cleanUp(Pod pod) {
        log.info(
                "pod {}/{} removed from the node",
                pod.metadata().namespace(),
                pod.metadata().name());
        state.writers.values().forEach(w -> settings.logs().close(w));
        state.writers.clear();
        settings.volumes().cleanUp(state.uid);
        settings.stateStore().delete(state.uid);
        settings.logs().deletePodLogs(pod.metadata().namespace(), pod.metadata().name(), state.uid);
        state.finished = true;
        onCleanedUp.run();
    }
}
