package io.kplane.controllers.namespace;

import io.kplane.api.core.Namespace;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import java.time.Duration;

/** The namespace controller as a {@link ControllerComponent}. */
public final class NamespaceControllerComponent implements ControllerComponent {
    private final Duration recheckInterval;

    public NamespaceControllerComponent() {
        this(Duration.ofSeconds(1));
    }

    public NamespaceControllerComponent(Duration recheckInterval) {
        this.recheckInterval = recheckInterval;
    }

    @Override
    public String name() {
        return NamespaceController.NAME;
    }

    @Override
    public int defaultWorkers() {
        return 5; // kube-controller-manager's --concurrent-namespace-syncs is 10; each pass is many HTTP calls
    }

    @Override
    public Running register(ControllerContext ctx) {
        NamespaceController controller = new NamespaceController(
                ctx.informers().informerFor(Namespace.class),
                ctx.client(),
                ctx.clock(),
                ctx.workers(),
                recheckInterval);
        return new Running() {
            @Override
            public void startWorkers() {
                controller.startWorkers();
            }

            @Override
            public void close() {
                try {
                    controller.stop(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
