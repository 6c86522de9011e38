package io.kplane.kubelet.pod;

import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerStateTerminated;
import io.kplane.api.core.EventType;
import io.kplane.api.core.Pod;
import io.kplane.client.time.Clock;
import io.kplane.kubelet.logs.CriLogWriter;
import io.kplane.kubelet.runtime.ContainerLaunch;
import io.kplane.kubelet.runtime.ContainerStartException;
import io.kplane.kubelet.runtime.ContainerStdio;
import io.kplane.kubelet.runtime.Mount;
import io.kplane.kubelet.runtime.RunningContainer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts container attempts: waits out the crash-loop and image-pull back-offs, records the attempt
 * on disk before asking the runtime to start it, and follows the started container.
 *
 * <p>Once an attempt is recorded, only two outcomes are certain: the runtime returned a handle
 * (followed from then on) or a {@link ContainerStartException} says what happened (the attempt did
 * not start, or it ran and failed). Any other failure of the engine leaves the attempt recorded as
 * {@code starting} without a handle, an attempt in unknown state that {@link AttemptRecovery} re-attaches
 * to or kills on the next pass; this class never starts a container whose previous attempt may still run.
 */
final class ContainerStarter {
    private static final Logger log = LoggerFactory.getLogger(ContainerStarter.class);
    /** How soon an attempt in unknown state is looked at again. */
    static final Duration UNKNOWN_RETRY = Duration.ofSeconds(1);

    private final PodState state;
    private final WorkerSettings settings;
    private final Clock clock;
    private final WakeUps wakeUps;

    ContainerStarter(PodState state, WakeUps wakeUps) {
        this.state = state;
        this.settings = state.settings;
        this.clock = settings.clock();
        this.wakeUps = wakeUps;
    }

    /** Starts {@code c} now, or records why it waits (back-off) and wakes the worker when it is due. */
    void startWhenDue(Pod pod, Container c, ContainerRecord r) {
        if (state.unknown(r) || r.running) {
            // the previous attempt may still run: never start the next one next to it
            throw new IllegalStateException("container " + c.name() + " of pod " + state.uid
                    + " has an attempt in progress; it must be resolved before another start");
        }
        Instant now = clock.now();
        if (r.terminated != null) {
            Duration lastRun = r.terminated.startedAt() != null && r.terminated.finishedAt() != null
                    ? Duration.between(r.terminated.startedAt(), r.terminated.finishedAt())
                    : Duration.ZERO;
            if (settings.backoff().resets(lastRun) && r.backoffOrigin != r.restartCount()) {
                r.backoffOrigin = r.restartCount(); // a long, healthy run: the back-off starts over
                state.persist();
            }
            // restarts since the back-off (re)started: the first is immediate, then base, doubling
            Duration delay = settings.backoff().delay(r.restartCount() - r.backoffOrigin);
            Instant due = r.terminated.finishedAt() == null
                    ? now
                    : r.terminated.finishedAt().plus(delay);
            if (now.isBefore(due)) {
                if (!"CrashLoopBackOff".equals(r.waitingReason)) {
                    settings.events()
                            .event(
                                    pod,
                                    EventType.WARNING,
                                    "BackOff",
                                    "Back-off restarting failed container "
                                            + c.name() + " in pod "
                                            + pod.metadata().name() + "_"
                                            + pod.metadata().namespace() + "("
                                            + state.uid + ")");
                }
                setWaiting(
                        r,
                        "CrashLoopBackOff",
                        "back-off " + delay.toSeconds() + "s restarting failed container="
                                + c.name() + " pod=" + pod.metadata().name() + "_"
                                + pod.metadata().namespace() + "("
                                + state.uid + ")");
                wakeUps.wakeAt(due);
                return;
            }
        }
        if (r.pullRetryAt != null && now.isBefore(r.pullRetryAt)) {
            setWaiting(r, "ImagePullBackOff", "Back-off pulling image \"" + c.image() + "\"");
            wakeUps.wakeAt(r.pullRetryAt);
            return;
        }
        start(pod, c, r);
    }

    private void setWaiting(ContainerRecord r, String reason, String message) {
        if (!Objects.equals(reason, r.waitingReason) || !Objects.equals(message, r.waitingMessage)) {
            r.waitingReason = reason;
            r.waitingMessage = message;
            state.persist();
        }
    }

    private void start(Pod pod, Container c, ContainerRecord r) {
        ContainerLaunch launch;
        try {
            launch = launch(pod, c, r.attempts);
            settings.runtime().ensureImage(launch);
            r.pullFailures = 0;
            r.pullRetryAt = null;
        } catch (ContainerStartException e) {
            state.closeWriter(c.name());
            if (!e.reason().equals(r.waitingReason)) {
                settings.events().event(pod, EventType.WARNING, e.eventReason(), e.getMessage());
            }
            failedBeforeStart(c, r, e);
            return;
        } catch (RuntimeException e) {
            // nothing is recorded yet, so nothing can have run: a plain retry after the back-off
            state.closeWriter(c.name());
            log.warn("container {} of pod {}: preparing the start failed: {}", c.name(), state.uid, e.toString());
            failedBeforeStart(
                    c, r, ContainerStartException.waiting(ContainerStartException.CREATE_ERROR, e.toString(), e));
            return;
        }
        // persist the attempt before starting it: after a crash we know it may have run
        r.attempts++;
        r.starting = true;
        r.containerId = null;
        if (r.terminated != null) {
            r.lastTerminated = r.terminated;
            r.terminated = null;
        }
        state.persist();
        RunningContainer container;
        try {
            container = settings.runtime().start(launch);
        } catch (ContainerStartException e) {
            r.starting = false;
            state.closeWriter(c.name());
            settings.events().event(pod, EventType.WARNING, "Failed", "Error: " + e.getMessage());
            if (e.terminated()) {
                Instant now = clock.now();
                r.terminated = new ContainerStateTerminated(
                        128, null, ContainerStartException.START_ERROR, e.getMessage(), now, now, null);
                r.waitingReason = null;
                r.waitingMessage = null;
                state.persist();
                wakeUps.wakeUp();
            } else {
                r.attempts--;
                if (r.lastTerminated != null && r.terminated == null) {
                    r.terminated = r.lastTerminated;
                }
                failedBeforeStart(c, r, e);
            }
            return;
        } catch (RuntimeException e) {
            // The engine failed in a way that does not say whether the container exists or runs. The
            // attempt stays recorded as starting and without a handle: unknown, to be re-attached or
            // killed by the recovery on the next pass, never started afresh.
            log.warn(
                    "container {} of pod {}: the runtime failed while starting attempt {}; its state is unknown "
                            + "until it is re-attached or killed: {}",
                    c.name(),
                    state.uid,
                    r.attempts,
                    e.toString());
            wakeUps.wakeAt(clock.now().plus(UNKNOWN_RETRY));
            return;
        }
        // follow it before anything else can fail (an event write, say): a started attempt is never lost
        attach(c.name(), r, container);
        settings.events().event(pod, EventType.NORMAL, "Created", "Created container " + c.name());
        settings.events().event(pod, EventType.NORMAL, "Started", "Started container " + c.name());
    }

    private void failedBeforeStart(Container c, ContainerRecord r, ContainerStartException e) {
        log.info("container {} of pod {} cannot start: {}: {}", c.name(), state.uid, e.reason(), e.getMessage());
        if (ContainerStartException.ERR_IMAGE_PULL.equals(e.reason())) {
            r.pullFailures++;
            r.pullRetryAt = clock.now().plus(settings.backoff().delay(r.pullFailures));
            wakeUps.wakeAt(r.pullRetryAt);
        } else {
            wakeUps.wakeAt(clock.now().plus(settings.backoff().base()));
        }
        setWaiting(r, e.reason(), e.getMessage());
        state.persist();
    }

    /** What the runtime needs to start (or find again) attempt {@code attempt} of {@code c}; opens its log. */
    ContainerLaunch launch(Pod pod, Container c, int attempt) throws ContainerStartException {
        EnvResolver resolver = new EnvResolver(
                settings.hostIp(),
                settings.hostIp(),
                settings.volumes().objects(),
                (reason, message) -> settings.events().event(pod, EventType.WARNING, reason, message));
        Map<String, String> env = resolver.environment(pod, c);
        List<Mount> mounts = settings.volumes().mountsFor(pod, c, env);
        CriLogWriter writer =
                settings.logs().open(pod.metadata().namespace(), pod.metadata().name(), state.uid, c.name(), attempt);
        CriLogWriter old = state.writers.put(c.name(), writer);
        if (old != null && old != writer) {
            settings.logs().close(old);
        }
        return new ContainerLaunch(
                state.uid,
                pod.metadata().namespace(),
                pod.metadata().name(),
                c.name(),
                attempt,
                c.image(),
                c.imagePullPolicy(),
                EnvResolver.expandAll(c.command(), env),
                EnvResolver.expandAll(c.args(), env),
                env,
                c.workingDir(),
                settings.stateStore().scratchDir(state.uid),
                writer,
                mounts,
                ContainerStdio.of(c.stdin(), c.stdinOnce(), c.tty()));
    }

    /** From now on the worker follows {@code container} as the current attempt of {@code name}. */
    void attach(String name, ContainerRecord r, RunningContainer container) {
        state.running.put(name, container);
        state.stopRequested.remove(name);
        r.starting = false;
        r.running = true;
        r.containerId = container.containerId();
        r.startedAt = container.startedAt();
        r.waitingReason = null;
        r.waitingMessage = null;
        container.exited().whenComplete((exit, error) -> wakeUps.wakeUp());
        state.persist();
    }
}
