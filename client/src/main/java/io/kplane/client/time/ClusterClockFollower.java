package io.kplane.client.time;

import io.kplane.api.ResourceTypes;
import io.kplane.api.clock.ClusterTime;
import io.kplane.client.KubeClient;
import io.kplane.client.ListOptions;
import io.kplane.client.informer.ListerWatcher;
import io.kplane.client.informer.ReflectorOptions;
import io.kplane.client.informer.ResourceEventHandler;
import io.kplane.client.informer.SharedIndexInformer;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link ClusterClock} in step with the API server's {@code cluster} Clock through an informer,
 * and answers clock steps ({@link ClockAckPublisher}). One per process: every component of the process
 * reads the same clock. The informer's own retries run on the wall clock: reaching the server is about
 * real time, whatever the cluster clock says.
 */
public final class ClusterClockFollower implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClusterClockFollower.class);
    /** Annotation the CLI puts on the Clock for a step it waits on; acks name it back. */
    public static final String STEP_ANNOTATION = "clock.kplane.io/step";

    private final ClusterClock clock;
    private final SharedIndexInformer<io.kplane.api.clock.Clock> informer;
    private final ClockAckPublisher acks;
    private volatile long generation;
    private volatile String step;

    private ClusterClockFollower(KubeClient client, String identity) {
        this.clock = new ClusterClock();
        this.informer = new SharedIndexInformer<>(
                "clocks",
                ListerWatcher.of(
                        client.resource(ResourceTypes.CLOCKS, io.kplane.api.clock.Clock.class),
                        ListOptions.fieldSelector("metadata.name=" + io.kplane.api.clock.Clock.CLUSTER)),
                Clock.system(),
                // one small object that every start waits for: while it was never listed, retried every
                // 200 ms for up to 20 s (a component started beside its API server has the clock within
                // a fifth of a second of the server's arrival; the doubling wait let the kubelet list it
                // 0.97 s after the server served), then from 100 ms doubling up to 2 s (not the default
                // 0.8 s doubling to 30 s)
                ReflectorOptions.DEFAULT
                        .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))
                        .withStartupRetry(Duration.ofMillis(200), Duration.ofSeconds(20)),
                Map.of());
        this.acks = new ClockAckPublisher(client, identity, this);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(io.kplane.api.clock.Clock obj, boolean isInInitialList) {
                apply(obj);
            }

            @Override
            public void onUpdate(io.kplane.api.clock.Clock oldObj, io.kplane.api.clock.Clock newObj) {
                apply(newObj);
            }

            @Override
            public void onDelete(io.kplane.api.clock.Clock obj, boolean finalStateUnknown) {
                step = null;
                clock.update(ClusterTime.REAL);
            }
        });
    }

    /**
     * Starts following and waits (up to {@code syncTimeout}) for the first state, so a component never
     * starts on wall time and then jumps. {@code identity} names this process's ack Lease.
     */
    public static ClusterClockFollower start(KubeClient client, String identity, Duration syncTimeout) {
        ClusterClockFollower f = new ClusterClockFollower(client, identity);
        f.informer.start();
        try {
            if (!f.informer.waitForSync(syncTimeout)) {
                log.warn("no cluster clock from the API server after {}; using real time until it comes", syncTimeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        f.acks.start();
        return f;
    }

    /**
     * Starts following without waiting: for a process that must come up (its health port) while the
     * API server may be unreachable, and waits with {@link #awaitFirstState} only where the cluster
     * time is first needed. {@code identity} names this process's ack Lease.
     */
    public static ClusterClockFollower startInBackground(KubeClient client, String identity) {
        ClusterClockFollower f = new ClusterClockFollower(client, identity);
        f.informer.start();
        f.acks.start();
        return f;
    }

    /**
     * Waits (up to {@code timeout}) until the first state of the cluster Clock is known, so a component
     * does not start on wall time and then jump; after the timeout it goes on with real time.
     */
    public void awaitFirstState(Duration timeout) throws InterruptedException {
        if (!informer.waitForSync(timeout)) {
            log.warn("no cluster clock from the API server after {}; using real time until it comes", timeout);
        }
    }

    private void apply(io.kplane.api.clock.Clock obj) {
        long gen = obj.metadata() == null || obj.metadata().generation() == null
                ? 0
                : obj.metadata().generation();
        // the step token first: the publisher must not ack a new generation under the old step's name
        step = obj.metadata() == null || obj.metadata().annotations() == null
                ? null
                : obj.metadata().annotations().get(STEP_ANNOTATION);
        clock.update(obj.clusterTime());
        generation = gen;
        acks.poke();
    }

    public ClusterClock clock() {
        return clock;
    }

    /** The generation of the Clock this process follows now. */
    public long generation() {
        return generation;
    }

    /** The step the CLI is waiting on, or null. */
    public String step() {
        return step;
    }

    @Override
    public void close() {
        acks.close();
        informer.stop();
        clock.close();
    }
}
