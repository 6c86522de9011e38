package io.kplane.controllers.runtime;

import io.kplane.client.KubeClient;
import io.kplane.client.metrics.RequestResultObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Upstream's {@code rest_client_requests_total{code,method,host}} for a process's REST client (client-go's
 * RequestResult). The counters are kept per label set (a handful: one host, a few methods and codes), so
 * a request on the hot path costs one map lookup, not a meter registration.
 */
public final class RestClientMetrics implements RequestResultObserver {
    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    private RestClientMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public static void bind(KubeClient client, MeterRegistry registry) {
        client.raw().observeRequestResults(new RestClientMetrics(registry));
    }

    @Override
    public void increment(String code, String method, String host) {
        counters.computeIfAbsent(code + ' ' + method + ' ' + host, k -> Counter.builder(METRIC)
                        .description(HELP)
                        .tags("code", code, "method", method, "host", host)
                        .register(registry))
                .increment();
    }
}
