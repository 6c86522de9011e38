package io.kplane.controllers.nodelifecycle;

import io.kplane.api.coordination.Lease;
import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import java.time.Duration;

/** The node lifecycle controller as a {@link ControllerComponent}. */
public final class NodeLifecycleComponent implements ControllerComponent {
    public static final String NAME = "node-lifecycle";
    private final Duration gracePeriod;
    private final Duration monitorPeriod;
    private final Duration podEvictionDelay;

    public NodeLifecycleComponent(Duration gracePeriod, Duration monitorPeriod, Duration podEvictionDelay) {
        this.gracePeriod = gracePeriod;
        this.monitorPeriod = monitorPeriod;
        this.podEvictionDelay = podEvictionDelay;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int defaultWorkers() {
        return 1;
    }

    @Override
    public Running register(ControllerContext ctx) {
        NodeLifecycleController controller = new NodeLifecycleController(
                ctx.informers().informerFor(Node.class),
                ctx.informers().informerFor(Lease.class),
                ctx.informers().informerFor(Pod.class),
                ctx.client(),
                ctx.events(),
                ctx.clock(),
                gracePeriod,
                monitorPeriod,
                podEvictionDelay);
        return new Running() {
            @Override
            public void startWorkers() {
                controller.start();
            }

            @Override
            public void close() {
                controller.stop();
            }
        };
    }
}
