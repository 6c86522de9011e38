package io.kplane.controllers.runtime;

import io.kplane.client.KubeClient;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What a controller gets when its process starts leading: the API client, the process's shared
 * informer factory (create informers from it, the process starts them and waits for their caches
 * before workers run), the clock, a Kubernetes event writer, a metrics registry, the number of
 * workers to run, and the process identity (for events' reportingInstance).
 */
public record ControllerContext(KubeClient client, SharedInformerFactory informers, Clock clock,
                                EventWriter events, MeterRegistry metrics, int workers, String identity) {
}
