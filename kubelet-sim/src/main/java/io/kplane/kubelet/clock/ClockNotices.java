package io.kplane.kubelet.clock;

import io.kplane.api.clock.ClusterTime;
import io.kplane.api.core.EventType;
import io.kplane.api.core.Pod;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.informer.ResourceEventHandler;
import io.kplane.client.time.ClusterClock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Says in pod Events when containers do not see the cluster time, so no pod is shown a wrong time
 * silently: at a pod's arrival when its runtime or the clock's mode cannot be shown
 * ({@link PodClock#limitation}), and at a clock change for the pods already running (their containers
 * keep the time they started with). Once per pod and clock mode, so stepping a clock does not flood.
 */
public final class ClockNotices implements ClusterClock.ChangeListener, ResourceEventHandler<Pod> {
    public static final String REASON = "ClusterClockNotFollowed";

    private final ClusterClock clock;
    private final String runtime;
    private final Supplier<List<Pod>> pods;
    private final EventRecorder events;
    private final Set<String> told = ConcurrentHashMap.newKeySet();

    public ClockNotices(ClusterClock clock, String runtime, Supplier<List<Pod>> pods, EventRecorder events) {
        this.clock = clock;
        this.runtime = runtime;
        this.pods = pods;
        this.events = events;
    }

    @Override
    public void onAdd(Pod pod, boolean isInInitialList) {
        String limitation = PodClock.limitation(clock, runtime);
        if (limitation != null && !pod.isTerminal() && told.add(pod.metadata().uid() + "/" + key(clock.time()))) {
            events.event(pod, EventType.WARNING, REASON, limitation + " (docs/clock.md)");
        }
    }

    @Override
    public void onDelete(Pod pod, boolean finalStateUnknown) {
        told.removeIf(k -> k.startsWith(pod.metadata().uid() + "/"));
    }

    @Override
    public void clockChanged(ClusterTime before, ClusterTime after, boolean jumped) {
        String limitation = PodClock.limitation(clock, runtime);
        String message = "the cluster clock changed to " + key(after)
                + ": running containers keep the time they started with"
                + (limitation == null ? "" : "; " + limitation) + " (docs/clock.md)";
        for (Pod pod : pods.get()) {
            if (!pod.isTerminal() && told.add(pod.metadata().uid() + "/" + key(after))) {
                events.event(pod, EventType.WARNING, REASON, message);
            }
        }
    }

    private static String key(ClusterTime t) {
        return t.mode() + (t.rate() > 1 ? " x" + t.rate() : "");
    }
}
