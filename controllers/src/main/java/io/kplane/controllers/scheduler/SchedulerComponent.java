package io.kplane.controllers.scheduler;

import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import java.time.Duration;

/** The scheduler loop as a {@link ControllerComponent}. */
public final class SchedulerComponent implements ControllerComponent {
    public static final String NAME = "scheduler";
    private final Duration retryPeriod;

    public SchedulerComponent(Duration retryPeriod) {
        this.retryPeriod = retryPeriod;
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
        Scheduler scheduler = new Scheduler(
                ctx.informers().informerFor(Pod.class),
                ctx.informers().informerFor(Node.class),
                ctx.client(),
                ctx.events(),
                ctx.clock(),
                retryPeriod);
        return new Running() {
            @Override
            public void startWorkers() {
                scheduler.startWorkers();
            }

            @Override
            public void close() {
                try {
                    scheduler.stop(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
