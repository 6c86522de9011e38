package io.kplane.kubelet.pod;

import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerStateTerminated;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import io.kplane.kubelet.runtime.ContainerLaunch;
import io.kplane.kubelet.runtime.ContainerStartException;
import io.kplane.kubelet.runtime.RunningContainer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Knows what became of container attempts the worker has no handle on: the pod's record is loaded
 * from disk after a kubelet restart, and every pass resolves each attempt in unknown state (recorded
 * as starting or running, but not followed: the kubelet restarted, or the engine failed after the
 * attempt was recorded) by re-attaching to it, or, when the runtime cannot, by killing what is left
 * of it and recording it as lost. Until that succeeds the attempt stays unknown and the worker starts
 * nothing for the pod.
 */
final class AttemptRecovery {
    private static final Logger log = LoggerFactory.getLogger(AttemptRecovery.class);
    static final String LOST_REASON = "ContainerStatusUnknown";
    static final String LOST_MESSAGE = "The container could not be located when the kubelet restarted: "
            + "host processes cannot be re-attached, so it was killed";

    private final PodState state;
    private final WorkerSettings settings;
    private final ContainerStarter starter;

    AttemptRecovery(PodState state, ContainerStarter starter) {
        this.state = state;
        this.settings = state.settings;
        this.starter = starter;
    }

    /**
     * The pod's record: from disk after a kubelet restart, else a fresh one. A pod the API already
     * shows as terminal, or whose containers were started by a kubelet whose state is gone, is never
     * started again.
     */
    PodRecord load(Pod pod, Instant now) {
        Optional<PodRecord> saved = settings.stateStore().load(state.uid);
        if (saved.isPresent()) {
            log.info(
                    "recovered pod {}/{} from {}",
                    saved.get().namespace,
                    saved.get().name,
                    settings.stateStore().podDir(state.uid));
            return saved.get();
        }
        PodRecord fresh = new PodRecord();
        fresh.uid = state.uid;
        fresh.namespace = pod.metadata().namespace();
        fresh.name = pod.metadata().name();
        PodStatus st = pod.status();
        fresh.startTime = st != null && st.startTime() != null ? st.startTime() : now;
        if (pod.isTerminal()) {
            fresh.terminalPhase = pod.phase();
            fresh.reason = st.reason();
            fresh.message = st.message();
        } else if (st != null && st.containerStatusesOrEmpty().stream().anyMatch(cs -> cs.containerID() != null)) {
            // started by a kubelet whose state is lost: report them lost rather than run them again
            fresh.terminalPhase = PodStatus.FAILED;
            fresh.reason = LOST_REASON;
            fresh.message = "the kubelet's record of this pod was lost";
        }
        return fresh;
    }

    /**
     * Re-attaches to or kills every attempt in unknown state. Returns true when none is left; false
     * when the runtime failed for one of them (it stays unknown and is tried again on a later pass).
     */
    boolean resolveUnknownAttempts(Pod pod, Instant now) {
        boolean resolved = true;
        boolean changed = false;
        for (Container c : allContainers(pod)) {
            ContainerRecord cr = state.record.container(
                    c.name(), pod.spec().initContainersOrEmpty().contains(c));
            if (!state.unknown(cr)) {
                continue;
            }
            try {
                resolve(pod, c, cr, now);
                changed = true;
            } catch (RuntimeException e) {
                resolved = false;
                log.warn(
                        "container {} of pod {}: cannot tell yet what became of attempt {} (will retry): {}",
                        c.name(),
                        state.uid,
                        cr.attempts,
                        e.toString());
            }
        }
        if (changed) {
            state.persist();
        }
        return resolved;
    }

    private void resolve(Pod pod, Container c, ContainerRecord cr, Instant now) {
        ContainerLaunch launch;
        try {
            launch = starter.launch(pod, c, Math.max(0, cr.attempts - 1));
        } catch (ContainerStartException e) {
            // cannot even describe it to the runtime: kill it by its recorded ID, then it is lost
            settings.runtime().discard(cr.containerId, cr.startedAt);
            markLost(cr, now);
            return;
        }
        Optional<RunningContainer> again = settings.runtime().reattach(launch, cr.containerId, cr.startedAt);
        if (again.isPresent()) {
            starter.attach(c.name(), cr, again.get());
        } else if (cr.starting && cr.containerId == null && settings.runtime().tracksContainers()) {
            // the runtime never created it: that attempt did not happen
            log.info("container {} of pod {}: attempt {} was never created", c.name(), state.uid, cr.attempts);
            cr.starting = false;
            cr.attempts--;
            if (cr.lastTerminated != null) {
                cr.terminated = cr.lastTerminated;
                cr.lastTerminated = null;
            }
            state.closeWriter(c.name());
        } else {
            markLost(cr, now);
            state.closeWriter(c.name());
        }
    }

    private static void markLost(ContainerRecord cr, Instant now) {
        cr.running = false;
        cr.starting = false;
        cr.terminated =
                new ContainerStateTerminated(137, null, LOST_REASON, LOST_MESSAGE, cr.startedAt, now, cr.containerId);
    }

    static List<Container> allContainers(Pod pod) {
        List<Container> all = new ArrayList<>(pod.spec().initContainersOrEmpty());
        all.addAll(pod.spec().containersOrEmpty());
        return all;
    }
}
