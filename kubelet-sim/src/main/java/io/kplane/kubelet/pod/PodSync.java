package io.kplane.kubelet.pod;

import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerStateTerminated;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpec;
import io.kplane.api.core.PodStatus;
import io.kplane.client.time.Clock;
import io.kplane.kubelet.runtime.ExitStatus;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One level-triggered pass over a pod, like the kubelet's syncPod: compares the latest pod from the
 * API server with the containers the worker has, starts, restarts or stops containers, and reports
 * the status when it changed. The order of a pass is what keeps one attempt from running twice:
 * exits are collected, then every attempt in unknown state is resolved ({@link AttemptRecovery}), and
 * only when none is left may {@link ContainerStarter} start anything.
 */
final class PodSync {
    private static final Logger log = LoggerFactory.getLogger(PodSync.class);
    static final String DEADLINE_MESSAGE = "Pod was active on the node longer than the specified deadline";

    private final PodState state;
    private final WorkerSettings settings;
    private final Clock clock;
    private final WakeUps wakeUps;
    private final ContainerStarter starter;
    private final AttemptRecovery recovery;
    private final PodTermination termination;

    PodSync(PodState state, WakeUps wakeUps, Runnable onCleanedUp) {
        this.state = state;
        this.settings = state.settings;
        this.clock = settings.clock();
        this.wakeUps = wakeUps;
        this.starter = new ContainerStarter(state, wakeUps);
        this.recovery = new AttemptRecovery(state, starter);
        this.termination = new PodTermination(state, this::report, onCleanedUp);
    }

    void sync(Pod pod, boolean removed) {
        Instant now = clock.now();
        if (state.record == null) {
            state.record = recovery.load(pod, now);
            state.persist();
        }
        collectExits();
        state.idle = false;
        if (!recovery.resolveUnknownAttempts(pod, now)) {
            // an attempt may still run: decide nothing (no start, no "all stopped") until it is known
            wakeUps.wakeAt(clock.now().plus(ContainerStarter.UNKNOWN_RETRY));
            return;
        }
        PodSpec spec = pod.spec();
        if (removed) {
            termination.removed(pod);
            return;
        }
        boolean deleting = pod.metadata().deletionTimestamp() != null;
        PodRecord record = state.record;
        if (pod.isTerminal() && record.terminalPhase == null) {
            // someone else ended the pod (node-lifecycle after a node loss): a terminal phase is final,
            // so stop the containers and keep that phase instead of reporting them running again
            log.info(
                    "pod {}/{} was marked {} by the control plane: stopping it",
                    pod.metadata().namespace(),
                    pod.metadata().name(),
                    pod.phase());
            record.terminalPhase = pod.phase();
            record.reason = pod.status().reason();
            record.message = pod.status().message();
            state.persist();
        }
        if (!deleting
                && record.terminalPhase == null
                && !record.deadlineExceeded
                && spec.activeDeadlineSeconds() != null
                && record.startTime != null) {
            Instant deadline = record.startTime.plusSeconds(spec.activeDeadlineSeconds());
            if (!now.isBefore(deadline)) {
                log.info(
                        "pod {}/{} exceeded its active deadline",
                        pod.metadata().namespace(),
                        pod.metadata().name());
                // the phase turns Failed once the containers have stopped, as in Kubernetes 1.27+
                record.deadlineExceeded = true;
                record.reason = "DeadlineExceeded";
                record.message = DEADLINE_MESSAGE;
                state.persist();
            } else {
                wakeUps.wakeAt(deadline);
            }
        }
        if (deleting || record.terminalPhase != null || record.deadlineExceeded) {
            termination.terminate(pod, deleting);
            return;
        }
        if (runInitContainers(pod) && runContainers(pod)) {
            String phase = StatusComputer.phase(spec, record, true);
            if ((PodStatus.SUCCEEDED.equals(phase) || PodStatus.FAILED.equals(phase)) && state.running.isEmpty()) {
                record.terminalPhase = phase;
                state.persist();
            }
        }
        report(pod);
        if (record.terminalPhase != null && state.running.isEmpty()) {
            state.idle = true;
        }
    }

    /** Init containers in order; true once all have succeeded. */
    private boolean runInitContainers(Pod pod) {
        String policy = StatusComputer.restartPolicy(pod.spec());
        for (Container c : pod.spec().initContainersOrEmpty()) {
            ContainerRecord r = state.record.container(c.name(), true);
            if (r.succeeded()) {
                continue;
            }
            if (r.running) {
                return false;
            }
            if (r.failed() && PodSpec.RESTART_NEVER.equals(policy)) {
                state.record.terminalPhase = PodStatus.FAILED;
                state.persist();
                return false;
            }
            starter.startWhenDue(pod, c, r);
            return false;
        }
        return true;
    }

    /** Starts or restarts the app containers as the restart policy says; false if the pod ended. */
    private boolean runContainers(Pod pod) {
        String policy = StatusComputer.restartPolicy(pod.spec());
        for (Container c : pod.spec().containersOrEmpty()) {
            ContainerRecord r = state.record.container(c.name(), false);
            if (r.running) {
                continue;
            }
            boolean restart = r.terminated == null
                    || PodSpec.RESTART_ALWAYS.equals(policy)
                    || (PodSpec.RESTART_ON_FAILURE.equals(policy) && r.failed());
            if (restart) {
                starter.startWhenDue(pod, c, r);
            }
        }
        return state.record.terminalPhase == null;
    }

    /** Records the exits of containers that have ended since the last pass. */
    private void collectExits() {
        for (var it = state.running.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            CompletableFuture<ExitStatus> exited = e.getValue().exited();
            if (!exited.isDone()) {
                continue;
            }
            it.remove();
            ContainerRecord r = state.findRecord(e.getKey());
            ExitStatus status;
            try {
                status = exited.join();
            } catch (RuntimeException ex) {
                status = new ExitStatus(137, clock.now(), AttemptRecovery.LOST_MESSAGE);
            }
            r.running = false;
            r.terminated = new ContainerStateTerminated(
                    status.exitCode(),
                    null,
                    status.exitCode() == 0 ? "Completed" : "Error",
                    status.message(),
                    r.startedAt,
                    status.finishedAt(),
                    r.containerId);
            state.persist();
            state.closeWriter(e.getKey());
            try {
                settings.runtime().remove(r.containerId);
            } catch (RuntimeException ex) {
                // leftovers of an ended attempt: harmless, the exit is already recorded
                log.warn("cannot remove container {} of pod {}: {}", r.containerId, state.uid, ex.toString());
            }
        }
    }

    void report(Pod pod) {
        // the kubelet's own last report is the base of its conditions, not the watch's lagging copy
        // (upstream's status manager cache): an echo of an older write then computes the same status
        PodStatus previous = state.lastReported != null ? state.lastReported : pod.status();
        PodStatus status = new StatusComputer(settings.hostIp()).compute(pod, state.record, clock.now(), previous);
        if (status.equals(state.lastReported)) {
            return;
        }
        io.kplane.api.core.Pod written =
                settings.statusWriter().writeStatus(PodWorker.newer(pod, state.lastWritten), status);
        if (written != null) {
            state.lastWritten = written;
        }
        state.lastReported = status;
    }
}
