package io.kplane.client.lens;

/**
 * The control-loop lens: the one seam the reflector, DeltaFIFO, indexer, event handlers, workqueue,
 * expectations and controller runner report to (see docs/lens.md).
 *
 * <p>Callers guard every report with {@link #enabled()}, so with {@link #NOOP} (the default) nothing is
 * built and the machinery pays one final-field read per call site. {@link LensRecorder} keeps the
 * records in bounded ring buffers and serves them to {@code /lens/*}.
 */
public interface Lens {
    /** The default: records nothing, never pauses, costs nothing. */
    Lens NOOP = new Lens() {
        @Override
        public boolean enabled() {
            return false;
        }

        @Override
        public void record(LensRecord record) {}

        @Override
        public QueueObserver queue(String name) {
            return QueueObserver.NOOP;
        }

        @Override
        public ControllerLens controller(String name, String queueName) {
            return ControllerLens.NOOP;
        }
    };

    /** False when reports are discarded: callers skip building them. */
    boolean enabled();

    /** One machinery record (stage reflector/fifo/indexer/handler/expectations/kubelet...). */
    void record(LensRecord record);

    /** The observer for the workqueue named {@code name} (upstream's queue names: job, cronjob...). */
    QueueObserver queue(String name);

    /** The runner-side view of controller {@code name} working the queue {@code queueName}: pause/step and sync records. */
    ControllerLens controller(String name, String queueName);

    /** A live figure for the snapshot's counters, e.g. {@code cacheObjects.pods}, {@code fifoDepth.pods}. */
    default void registerGauge(String name, java.util.function.IntSupplier value) {}
}
