package io.kplane.controllers.gc;

import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import java.time.Duration;

/** The garbage collector as a {@link ControllerComponent}. */
public final class GarbageCollectorComponent implements ControllerComponent {
    @Override
    public String name() {
        return GarbageCollector.NAME;
    }

    @Override
    public int defaultWorkers() {
        return 10; // Kubernetes' ConcurrentGCSyncs default is 20; deletions here are one HTTP call each
    }

    @Override
    public Running register(ControllerContext ctx) {
        GarbageCollector gc = new GarbageCollector(ctx.client(), ctx.informers(), ctx.clock(), ctx.workers());
        return new Running() {
            @Override
            public void startWorkers() {
                gc.startWorkers();
            }

            @Override
            public void close() {
                try {
                    gc.stop(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
