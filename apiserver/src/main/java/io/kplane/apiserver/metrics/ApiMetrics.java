package io.kplane.apiserver.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Prometheus metrics: requests by verb/resource/code with latencies, open watches, requests in
 * flight and the newest store revision seen.
 */
public final class ApiMetrics {
    public static final String VERB_KEY = "kplane.verb";
    public static final String RESOURCE_KEY = "kplane.resource";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicLong openWatches = new AtomicLong();
    private final AtomicLong inflight = new AtomicLong();
    private final AtomicLong storeRevision = new AtomicLong();

    public ApiMetrics() {
        Gauge.builder("apiserver_watches_open", openWatches, AtomicLong::get)
                .description("Watch streams currently open").register(registry);
        Gauge.builder("apiserver_requests_inflight", inflight, AtomicLong::get)
                .description("Non-watch requests being served").register(registry);
        Gauge.builder("apiserver_store_revision", storeRevision, AtomicLong::get)
                .description("Newest store revision the server has seen").register(registry);
    }

    public void request(String verb, String resource, int code, Duration latency) {
        String c = Integer.toString(code);
        Counter.builder("apiserver_request_total").tag("verb", verb).tag("resource", resource).tag("code", c)
                .register(registry).increment();
        Timer.builder("apiserver_request_duration_seconds").tag("verb", verb).tag("resource", resource)
                .publishPercentileHistogram(false).register(registry).record(latency);
    }

    public void watchOpened() {
        openWatches.incrementAndGet();
    }

    public void watchClosed() {
        openWatches.decrementAndGet();
    }

    public long openWatches() {
        return openWatches.get();
    }

    public AtomicLong inflight() {
        return inflight;
    }

    public void storeRevision(long revision) {
        storeRevision.accumulateAndGet(revision, Math::max);
    }

    public String scrape() {
        return registry.scrape();
    }
}
