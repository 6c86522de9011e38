package io.kplane.kubelet.pod;

import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerStateTerminated;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpec;
import io.kplane.api.core.PodStatus;
import io.kplane.client.time.Clock;
import io.kplane.kubelet.logs.CriLogWriter;
import io.kplane.kubelet.runtime.ContainerLaunch;
import io.kplane.kubelet.runtime.ContainerStartException;
import io.kplane.kubelet.runtime.ExitStatus;
import io.kplane.kubelet.runtime.Mount;
import io.kplane.kubelet.runtime.RunningContainer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one pod on its own thread, level-triggered like the kubelet's syncPod: each pass compares the
 * latest pod from the API server with the containers it has, starts, restarts or stops containers,
 * persists what it did (before each start, so a restarted kubelet never starts an attempt twice) and
 * reports the status when it changed. It wakes up on pod updates, container exits and its timers
 * (back-off, active deadline, grace period).
 */
public final class PodWorker {
    private static final Logger log = LoggerFactory.getLogger(PodWorker.class);
    static final String DEADLINE_MESSAGE = "Pod was active on the node longer than the specified deadline";
    static final String LOST_REASON = "ContainerStatusUnknown";
    static final String LOST_MESSAGE = "The container could not be located when the kubelet restarted: "
            + "host processes cannot be re-attached, so it was killed";

    private final WorkerSettings settings;
    private final Clock clock;
    private final String uid;
    private final Object lock = new Object();
    private final Map<String, RunningContainer> running = new HashMap<>();
    private final Map<String, CriLogWriter> writers = new HashMap<>();
    private Pod desired;
    private boolean removedFromApi;
    private boolean wake = true;
    private volatile boolean finished;
    private PodRecord record;
    private PodStatus lastReported;
    private Pod lastWritten;
    private boolean stopping;
    private final java.util.Set<String> stopRequested = new java.util.HashSet<>();
    /** Terminal with nothing left to run: the thread may exit until the pod changes again. */
    private volatile boolean idle;
    private volatile boolean terminal;
    private boolean threadRunning;
    private Thread thread;
    private Clock.Timer timer;
    private Instant timerAt;

    public PodWorker(WorkerSettings settings, Pod pod) {
        this.settings = settings;
        this.clock = settings.clock();
        this.uid = pod.metadata().uid();
        this.desired = pod;
    }

    public String uid() {
        return uid;
    }

    public boolean isFinished() {
        return finished;
    }

    public void start() {
        synchronized (lock) {
            ensureThread();
        }
    }

    /** Starts the worker thread unless it runs; called with the lock held. */
    private void ensureThread() {
        if (threadRunning || finished) {
            return;
        }
        threadRunning = true;
        thread = new Thread(this::loop, "pod-" + desired.metadata().namespace() + "-" + desired.metadata().name());
        thread.setDaemon(true);
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

    private void wakeUp() {
        synchronized (lock) {
            wake = true;
            lock.notifyAll();
            ensureThread();
        }
    }

    /** Kubelet shutdown: leave containers running (docker) and stop the thread. */
    public void abandon() {
        synchronized (lock) {
            finished = true;
            lock.notifyAll();
        }
    }

    private void loop() {
        while (true) {
            Pod pod;
            boolean removed;
            synchronized (lock) {
                if (!wake && (finished || idle)) {
                    // a finished pod needs no thread; the next update starts one again
                    threadRunning = false;
                    return;
                }
                while (!wake && !finished) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        threadRunning = false;
                        return;
                    }
                }
                if (finished) {
                    threadRunning = false;
                    return;
                }
                wake = false;
                pod = desired;
                removed = removedFromApi;
            }
            try {
                sync(pod, removed);
            } catch (RuntimeException e) {
                log.warn("sync of pod {}/{} failed, retrying in 1s: {}", pod.metadata().namespace(),
                        pod.metadata().name(), e.toString());
                wakeAt(clock.now().plusSeconds(1));
            }
        }
    }

    private void sync(Pod pod, boolean removed) {
        Instant now = clock.now();
        if (record == null) {
            record = recover(pod, now);
        }
        collectExits();
        idle = false;
        PodSpec spec = pod.spec();
        if (removed) {
            killAll(Duration.ZERO);
            if (running.isEmpty()) {
                cleanUp(pod);
            }
            return;
        }
        boolean deleting = pod.metadata().deletionTimestamp() != null;
        if (pod.isTerminal() && record.terminalPhase == null) {
            // someone else ended the pod (node-lifecycle after a node loss): a terminal phase is final,
            // so stop the containers and keep that phase instead of reporting them running again
            log.info("pod {}/{} was marked {} by the control plane: stopping it", pod.metadata().namespace(),
                    pod.metadata().name(), pod.phase());
            record.terminalPhase = pod.phase();
            record.reason = pod.status().reason();
            record.message = pod.status().message();
            persist();
        }
        if (!deleting && record.terminalPhase == null && !record.deadlineExceeded && spec.activeDeadlineSeconds() != null
                && record.startTime != null) {
            Instant deadline = record.startTime.plusSeconds(spec.activeDeadlineSeconds());
            if (!now.isBefore(deadline)) {
                log.info("pod {}/{} exceeded its active deadline", pod.metadata().namespace(), pod.metadata().name());
                // the phase turns Failed once the containers have stopped, as in Kubernetes 1.27+
                record.deadlineExceeded = true;
                record.reason = "DeadlineExceeded";
                record.message = DEADLINE_MESSAGE;
                persist();
            } else {
                wakeAt(deadline);
            }
        }
        if (deleting || record.terminalPhase != null || record.deadlineExceeded) {
            terminate(pod, deleting);
            return;
        }
        if (runInitContainers(pod) && runContainers(pod)) {
            String phase = StatusComputer.phase(spec, record, true);
            if ((PodStatus.SUCCEEDED.equals(phase) || PodStatus.FAILED.equals(phase)) && running.isEmpty()) {
                record.terminalPhase = phase;
                persist();
            }
        }
        report(pod);
        if (record.terminalPhase != null && running.isEmpty()) {
            idle = true;
        }
    }

    /** Init containers in order; true once all have succeeded. */
    private boolean runInitContainers(Pod pod) {
        String policy = StatusComputer.restartPolicy(pod.spec());
        for (Container c : pod.spec().initContainersOrEmpty()) {
            ContainerRecord r = record.container(c.name(), true);
            if (r.succeeded()) {
                continue;
            }
            if (r.running) {
                return false;
            }
            if (r.failed() && PodSpec.RESTART_NEVER.equals(policy)) {
                record.terminalPhase = PodStatus.FAILED;
                persist();
                return false;
            }
            startWhenDue(pod, c, r);
            return false;
        }
        return true;
    }

    /** Starts or restarts the app containers as the restart policy says; false if the pod ended. */
    private boolean runContainers(Pod pod) {
        String policy = StatusComputer.restartPolicy(pod.spec());
        for (Container c : pod.spec().containersOrEmpty()) {
            ContainerRecord r = record.container(c.name(), false);
            if (r.running) {
                continue;
            }
            boolean restart = r.terminated == null
                    || PodSpec.RESTART_ALWAYS.equals(policy)
                    || (PodSpec.RESTART_ON_FAILURE.equals(policy) && r.failed());
            if (restart) {
                startWhenDue(pod, c, r);
            }
        }
        return record.terminalPhase == null;
    }

    private void startWhenDue(Pod pod, Container c, ContainerRecord r) {
        Instant now = clock.now();
        if (r.terminated != null) {
            Duration lastRun = r.terminated.startedAt() != null && r.terminated.finishedAt() != null
                    ? Duration.between(r.terminated.startedAt(), r.terminated.finishedAt()) : Duration.ZERO;
            if (settings.backoff().resets(lastRun) && r.backoffOrigin != r.restartCount()) {
                r.backoffOrigin = r.restartCount(); // a long, healthy run: the back-off starts over
                persist();
            }
            // restarts since the back-off (re)started: the first is immediate, then base, doubling
            Duration delay = settings.backoff().delay(r.restartCount() - r.backoffOrigin);
            Instant due = r.terminated.finishedAt() == null ? now : r.terminated.finishedAt().plus(delay);
            if (now.isBefore(due)) {
                if (!"CrashLoopBackOff".equals(r.waitingReason)) {
                    settings.events().event(pod, "Warning", "BackOff", "Back-off restarting failed container "
                            + c.name() + " in pod " + pod.metadata().name() + "_" + pod.metadata().namespace() + "("
                            + uid + ")");
                }
                setWaiting(r, "CrashLoopBackOff", "back-off " + delay.toSeconds() + "s restarting failed container="
                        + c.name() + " pod=" + pod.metadata().name() + "_" + pod.metadata().namespace() + "("
                        + uid + ")");
                wakeAt(due);
                return;
            }
        }
        if (r.pullRetryAt != null && now.isBefore(r.pullRetryAt)) {
            setWaiting(r, "ImagePullBackOff", "Back-off pulling image \"" + c.image() + "\"");
            wakeAt(r.pullRetryAt);
            return;
        }
        start(pod, c, r);
    }

    private void setWaiting(ContainerRecord r, String reason, String message) {
        if (!Objects.equals(reason, r.waitingReason) || !Objects.equals(message, r.waitingMessage)) {
            r.waitingReason = reason;
            r.waitingMessage = message;
            persist();
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
            closeWriter(c.name());
            if (!e.reason().equals(r.waitingReason)) {
                settings.events().event(pod, "Warning", e.eventReason(), e.getMessage());
            }
            failedBeforeStart(c, r, e);
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
        persist();
        try {
            RunningContainer container = settings.runtime().start(launch);
            settings.events().event(pod, "Normal", "Created", "Created container " + c.name());
            settings.events().event(pod, "Normal", "Started", "Started container " + c.name());
            attach(c.name(), r, container);
        } catch (ContainerStartException e) {
            r.starting = false;
            closeWriter(c.name());
            settings.events().event(pod, "Warning", "Failed", "Error: " + e.getMessage());
            if (e.terminated()) {
                Instant now = clock.now();
                r.terminated = new ContainerStateTerminated(128, null, ContainerStartException.START_ERROR,
                        e.getMessage(), now, now, null);
                r.waitingReason = null;
                r.waitingMessage = null;
                persist();
                wakeUp();
            } else {
                r.attempts--;
                if (r.lastTerminated != null && r.terminated == null) {
                    r.terminated = r.lastTerminated;
                }
                failedBeforeStart(c, r, e);
            }
        }
    }

    private void failedBeforeStart(Container c, ContainerRecord r, ContainerStartException e) {
        log.info("container {} of pod {} cannot start: {}: {}", c.name(), uid, e.reason(), e.getMessage());
        if (ContainerStartException.ERR_IMAGE_PULL.equals(e.reason())) {
            r.pullFailures++;
            r.pullRetryAt = clock.now().plus(settings.backoff().delay(r.pullFailures));
            wakeAt(r.pullRetryAt);
        } else {
            wakeAt(clock.now().plus(settings.backoff().base()));
        }
        setWaiting(r, e.reason(), e.getMessage());
        persist();
    }

    private ContainerLaunch launch(Pod pod, Container c, int attempt) throws ContainerStartException {
        EnvResolver resolver = new EnvResolver(settings.hostIp(), settings.hostIp(), settings.volumes().objects(),
                (reason, message) -> settings.events().event(pod, "Warning", reason, message));
        Map<String, String> env = resolver.environment(pod, c);
        List<Mount> mounts = settings.volumes().mountsFor(pod, c, env);
        CriLogWriter writer = settings.logs().open(pod.metadata().namespace(), pod.metadata().name(), uid, c.name(),
                attempt);
        CriLogWriter old = writers.put(c.name(), writer);
        if (old != null && old != writer) {
            settings.logs().close(old);
        }
        return new ContainerLaunch(uid, pod.metadata().namespace(), pod.metadata().name(), c.name(), attempt,
                c.image(), c.imagePullPolicy(), EnvResolver.expandAll(c.command(), env),
                EnvResolver.expandAll(c.args(), env), env, c.workingDir(), settings.stateStore().scratchDir(uid),
                writer, mounts);
    }

    private void attach(String name, ContainerRecord r, RunningContainer container) {
        r.starting = false;
        r.running = true;
        r.containerId = container.containerId();
        r.startedAt = container.startedAt();
        r.waitingReason = null;
        r.waitingMessage = null;
        persist();
        running.put(name, container);
        stopRequested.remove(name);
        container.exited().whenComplete((exit, error) -> wakeUp());
    }

    /** Records the exits of containers that have ended since the last pass. */
    private void collectExits() {
        for (var it = running.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            CompletableFuture<ExitStatus> exited = e.getValue().exited();
            if (!exited.isDone()) {
                continue;
            }
            it.remove();
            ContainerRecord r = findRecord(e.getKey());
            ExitStatus status;
            try {
                status = exited.join();
            } catch (RuntimeException ex) {
                status = new ExitStatus(137, clock.now(), LOST_MESSAGE);
            }
            r.running = false;
            r.terminated = new ContainerStateTerminated(status.exitCode(), null,
                    status.exitCode() == 0 ? "Completed" : "Error", status.message(), r.startedAt, status.finishedAt(),
                    r.containerId);
            persist();
            closeWriter(e.getKey());
            settings.runtime().remove(r.containerId);
        }
    }

    private ContainerRecord findRecord(String name) {
        return record.all().stream().filter(r -> r.name.equals(name)).findFirst().orElseThrow();
    }

    private void closeWriter(String name) {
        CriLogWriter w = writers.remove(name);
        if (w != null) {
            settings.logs().close(w);
        }
    }

    /** Deletion or a terminal decision (deadline): stop containers, report, and finish a deletion. */
    private void terminate(Pod pod, boolean deleting) {
        Duration grace = Duration.ofSeconds(Optional.ofNullable(pod.metadata().deletionGracePeriodSeconds())
                .or(() -> Optional.ofNullable(pod.spec().terminationGracePeriodSeconds())).orElse(30L));
        if (!stopping && !running.isEmpty()) {
            stopping = true;
            running.keySet().forEach(name -> settings.events().event(pod, "Normal", "Killing",
                    "Stopping container " + name));
            log.info("stopping pod {}/{} ({} containers, grace {}s)", pod.metadata().namespace(),
                    pod.metadata().name(), running.size(), grace.toSeconds());
        }
        killAll(grace);
        for (ContainerRecord r : record.all()) {
            if (!r.running && r.waitingReason != null) {
                r.waitingReason = null;
                r.waitingMessage = null;
            }
        }
        if (!running.isEmpty()) {
            report(pod);
            return;
        }
        if (record.terminalPhase == null) {
            boolean allSucceeded = !record.containers.isEmpty()
                    && record.containers.stream().allMatch(ContainerRecord::succeeded);
            record.terminalPhase = allSucceeded && !record.deadlineExceeded ? PodStatus.SUCCEEDED : PodStatus.FAILED;
            persist();
        }
        report(pod);
        if (deleting) {
            settings.statusWriter().finishDeletion(pod);
            cleanUp(pod);
        } else {
            idle = true;
        }
    }

    /** Asks each running container to stop once (a second SIGTERM would re-run a trap); grace 0 always kills. */
    private void killAll(Duration grace) {
        for (var e : running.entrySet()) {
            if (grace.isZero() || stopRequested.add(e.getKey())) {
                e.getValue().stop(grace);
            }
        }
    }

    private void cleanUp(Pod pod) {
        log.info("pod {}/{} removed from the node", pod.metadata().namespace(), pod.metadata().name());
        writers.values().forEach(w -> settings.logs().close(w));
        writers.clear();
        settings.volumes().cleanUp(uid);
        settings.stateStore().delete(uid);
        settings.logs().deletePodLogs(pod.metadata().namespace(), pod.metadata().name(), uid);
        finished = true;
        if (timer != null) {
            timer.cancel();
        }
    }

    private void report(Pod pod) {
        PodStatus status = new StatusComputer(settings.hostIp()).compute(pod, record, clock.now());
        if (status.equals(lastReported)) {
            return;
        }
        Pod written = settings.statusWriter().writeStatus(newer(pod, lastWritten), status);
        if (written != null) {
            lastWritten = written;
        }
        lastReported = status;
    }

    /**
     * The newer of the informer's copy and the one our last write returned: the watch lags behind our
     * own writes, and writing from a stale copy would only earn a 409 Conflict and a re-read.
     */
    static Pod newer(Pod fromWatch, Pod written) {
        if (written == null) {
            return fromWatch;
        }
        try {
            long a = Long.parseLong(fromWatch.metadata().resourceVersion());
            long b = Long.parseLong(written.metadata().resourceVersion());
            return b > a ? fromWatch.withMetadata(fromWatch.metadata().withResourceVersion(
                    written.metadata().resourceVersion())).withStatus(written.status()) : fromWatch;
        } catch (RuntimeException e) {
            return fromWatch;
        }
    }

    private void persist() {
        settings.stateStore().save(record);
        terminal = record.terminalPhase != null;
    }

    /** Whether the pod still counts against the node's pod capacity. */
    public boolean isActive() {
        return !finished && !terminal;
    }

    private void wakeAt(Instant at) {
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

    /**
     * The pod's record: from disk after a kubelet restart (re-attaching to containers that still run, or
     * recording lost ones as failed), else a fresh one. A pod the API already shows as terminal, or whose
     * containers were started by a kubelet whose state is gone, is never started again.
     */
    private PodRecord recover(Pod pod, Instant now) {
        Optional<PodRecord> saved = settings.stateStore().load(uid);
        if (saved.isEmpty()) {
            PodRecord fresh = new PodRecord();
            fresh.uid = uid;
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
            record = fresh;
            persist();
            return fresh;
        }
        PodRecord r = saved.get();
        record = r;
        for (Container c : allContainers(pod)) {
            ContainerRecord cr = r.container(c.name(), pod.spec().initContainersOrEmpty().contains(c));
            if (!cr.running && !cr.starting) {
                continue;
            }
            ContainerLaunch launch;
            try {
                launch = launch(pod, c, Math.max(0, cr.attempts - 1));
            } catch (ContainerStartException e) {
                markLost(cr, now);
                continue;
            }
            Optional<RunningContainer> again = settings.runtime().reattach(launch, cr.containerId, cr.startedAt);
            if (again.isPresent()) {
                attach(c.name(), cr, again.get());
            } else if (cr.starting && cr.containerId == null && settings.runtime().tracksContainers()) {
                // the runtime never created it: that attempt did not happen
                cr.starting = false;
                cr.attempts--;
                if (cr.lastTerminated != null) {
                    cr.terminated = cr.lastTerminated;
                    cr.lastTerminated = null;
                }
                closeWriter(c.name());
            } else {
                markLost(cr, now);
                closeWriter(c.name());
            }
        }
        persist();
        log.info("recovered pod {}/{} from {}", r.namespace, r.name, settings.stateStore().podDir(uid));
        return r;
    }

    private void markLost(ContainerRecord cr, Instant now) {
        cr.running = false;
        cr.starting = false;
        cr.terminated = new ContainerStateTerminated(137, null, LOST_REASON, LOST_MESSAGE, cr.startedAt, now,
                cr.containerId);
    }

    private static List<Container> allContainers(Pod pod) {
        List<Container> all = new java.util.ArrayList<>(pod.spec().initContainersOrEmpty());
        all.addAll(pod.spec().containersOrEmpty());
        return all;
    }
}
