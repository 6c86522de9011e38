package io.kplane.controllers.runtime;

import io.kplane.client.KubeClient;
import io.kplane.client.metrics.RequestResultObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** Upstream's {@code rest_client_requests_total{code,method,host}} for a process's REST client (client-go's RequestResult). */
public final class RestClientMetrics {
    private RestClientMetrics() {
    }

    public static void bind(KubeClient client, MeterRegistry registry) {
        client.raw().observeRequestResults((code, method, host) -> Counter.builder(RequestResultObserver.METRIC)
                .description(RequestResultObserver.HELP).tags("code", code, "method", method, "host", host)
                .register(registry).increment());
    }
}
