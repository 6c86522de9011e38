package io.kplane.kubelet;

import io.kplane.kubelet.runtime.ContainerLaunch;
import io.kplane.kubelet.runtime.ContainerRuntime;
import io.kplane.kubelet.runtime.ContainerStartException;
import io.kplane.kubelet.runtime.ExitStatus;
import io.kplane.kubelet.runtime.RunningContainer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real runtime whose engine calls fail on demand, per pod and step, the way a flaky container engine
 * fails: with an unchecked exception that says nothing about whether the container exists.
 */
final class FaultInjectingRuntime implements ContainerRuntime {
    enum Step {
        /** {@code ensureImage} fails: nothing recorded, nothing started. */
        ENSURE_IMAGE,
        /** {@code start} fails before the engine created anything. */
        START_BEFORE_CREATE,
        /** {@code start} fails after the container was started (e.g. the inspect after start). */
        START_AFTER_RUNNING,
        /** {@code reattach} fails. */
        REATTACH,
        /** a container's {@code stop} fails. */
        STOP,
        /** {@code remove} of an exited container fails. */
        REMOVE
    }

    private final ContainerRuntime delegate;
    private final Map<String, Map<Step, AtomicInteger>> faults = new ConcurrentHashMap<>();

    FaultInjectingRuntime(ContainerRuntime delegate) {
        this.delegate = delegate;
    }

    /** The next {@code times} calls of {@code step} for pod {@code podName} fail. */
    FaultInjectingRuntime fail(String podName, Step step, int times) {
        faults.computeIfAbsent(podName, p -> new ConcurrentHashMap<>()).put(step, new AtomicInteger(times));
        return this;
    }

    private void maybeFail(String podName, Step step) {
        AtomicInteger left = faults.getOrDefault(podName, Map.of()).get(step);
        if (left != null && left.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("injected engine failure: " + step + " of pod " + podName);
        }
    }

    @Override
    public String type() {
        return delegate.type();
    }

    @Override
    public String version() {
        return delegate.version();
    }

    @Override
    public void ensureImage(ContainerLaunch launch) throws ContainerStartException {
        maybeFail(launch.podName(), Step.ENSURE_IMAGE);
        delegate.ensureImage(launch);
    }

    @Override
    public RunningContainer start(ContainerLaunch launch) throws ContainerStartException {
        maybeFail(launch.podName(), Step.START_BEFORE_CREATE);
        RunningContainer started = delegate.start(launch);
        maybeFail(launch.podName(), Step.START_AFTER_RUNNING);
        return new Faulty(launch.podName(), started);
    }

    @Override
    public Optional<RunningContainer> reattach(ContainerLaunch launch, String containerId, Instant startedAt) {
        maybeFail(launch.podName(), Step.REATTACH);
        return delegate.reattach(launch, containerId, startedAt)
                .map(c -> c instanceof Faulty ? c : new Faulty(launch.podName(), c));
    }

    @Override
    public boolean tracksContainers() {
        return delegate.tracksContainers();
    }

    @Override
    public void discard(String containerId, Instant startedAt) {
        delegate.discard(containerId, startedAt);
    }

    @Override
    public void remove(String containerId) {
        faults.forEach((pod, steps) -> {
            if (containerId != null && removeFails(pod)) {
                maybeFail(pod, Step.REMOVE);
            }
        });
        delegate.remove(containerId);
    }

    private boolean removeFails(String pod) {
        AtomicInteger left = faults.get(pod).get(Step.REMOVE);
        return left != null && left.get() > 0;
    }

    @Override
    public void close() {
        delegate.close();
    }

    private final class Faulty implements RunningContainer {
        private final String podName;
        private final RunningContainer delegate;

        Faulty(String podName, RunningContainer delegate) {
            this.podName = podName;
            this.delegate = delegate;
        }

        @Override
        public String containerId() {
            return delegate.containerId();
        }

        @Override
        public Instant startedAt() {
            return delegate.startedAt();
        }

        @Override
        public CompletableFuture<ExitStatus> exited() {
            return delegate.exited();
        }

        @Override
        public void stop(Duration grace) {
            maybeFail(podName, Step.STOP);
            delegate.stop(grace);
        }
    }
}
