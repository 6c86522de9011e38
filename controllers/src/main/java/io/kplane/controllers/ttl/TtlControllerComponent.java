package io.kplane.controllers.ttl;

import io.kplane.api.batch.Job;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import java.time.Duration;

/** The TTL-after-finished controller as a {@link ControllerComponent}. */
public final class TtlControllerComponent implements ControllerComponent {
    public static final String NAME = "ttl-controller";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Running register(ControllerContext ctx) {
        TtlControllerMetrics.bind(ctx.lens(), ctx.metrics());
        TtlAfterFinishedController ttl = new TtlAfterFinishedController(
                ctx.informers().informerFor(Job.class), ctx.client(), ctx.clock(), ctx.workers());
        return new Running() {
            @Override
            public void startWorkers() {
                ttl.startWorkers();
            }

            @Override
            public void close() {
                try {
                    ttl.stop(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
