package io.kplane.controllers.runtime;

import io.kplane.client.KubeClient;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.lens.Lens;
import io.kplane.client.time.Clock;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What a controller gets when its process starts leading: the API client, the process's shared
 * informer factory (create informers from it, the process starts them and waits for their caches
 * before workers run), the clock, a Kubernetes event recorder, a metrics registry, the number of
 * workers to run, the process identity (for events' reportingInstance), and the control-loop lens
 * (queues, runners and syncs report to it; {@link Lens#NOOP} when it is off).
 */
public record ControllerContext(
        KubeClient client,
        SharedInformerFactory informers,
        Clock clock,
        EventRecorder events,
        MeterRegistry metrics,
        int workers,
        String identity,
        Lens lens) {

    /** Without the lens ({@link Lens#NOOP}). */
    public ControllerContext(
            KubeClient client,
            SharedInformerFactory informers,
            Clock clock,
            EventRecorder events,
            MeterRegistry metrics,
            int workers,
            String identity) {
        this(client, informers, clock, events, metrics, workers, identity, Lens.NOOP);
    }

    public ControllerContext {
        lens = lens == null ? Lens.NOOP : lens;
    }
}
