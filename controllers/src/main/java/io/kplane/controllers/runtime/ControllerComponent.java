package io.kplane.controllers.runtime;

/**
 * A controller that a {@link ControllerProcess} runs while it holds the leader lease.
 *
 * <p>Lifecycle: {@link #register} creates informers from {@code ctx.informers()} and adds event
 * handlers (handlers only enqueue keys); the process then starts the informers, waits for their
 * caches, and calls {@link Running#startWorkers()}. {@link Running#close()} stops the workers when
 * leadership is lost or the process shuts down.
 */
public interface ControllerComponent {
    /** The component name, e.g. {@code job-controller}; also the default Lease name. */
    String name();

    /** Workers when {@code --workers} is not given. */
    default int defaultWorkers() {
        return 5;
    }

    Running register(ControllerContext ctx) throws Exception;

    /** A registered controller. */
    interface Running extends AutoCloseable {
        void startWorkers();

        @Override
        void close();
    }
}
