package io.kplane.apiserver.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
    private final Map<RequestKey, RequestMeters> requestMeters = new ConcurrentHashMap<>();

    public ApiMetrics() {
        Gauge.builder("apiserver_watches_open", openWatches, AtomicLong::get)
                .description("Watch streams currently open")
                .register(registry);
        Gauge.builder("apiserver_requests_inflight", inflight, AtomicLong::get)
                .description("Non-watch requests being served")
                .register(registry);
        Gauge.builder("apiserver_store_revision", storeRevision, AtomicLong::get)
                .description("Newest store revision the server has seen")
                .register(registry);
    }

    public void request(String verb, String resource, int code, Duration latency) {
        RequestMeters meters = requestMeters.computeIfAbsent(new RequestKey(verb, resource, code), this::register);
        meters.total().increment();
        meters.duration().record(latency);
    }

    /** Registering looks the meter up by its full id: done once per verb/resource/code, not per request. */
    private RequestMeters register(RequestKey key) {
        Counter total = Counter.builder("apiserver_request_total")
                .tag("verb", key.verb())
                .tag("resource", key.resource())
                .tag("code", Integer.toString(key.code()))
                .register(registry);
        Timer duration = Timer.builder("apiserver_request_duration_seconds")
                .tag("verb", key.verb())
                .tag("resource", key.resource())
                .publishPercentileHistogram(false)
                .register(registry);
        return new RequestMeters(total, duration);
    }

    private record RequestKey(String verb, String resource, int code) {}

    private record RequestMeters(Counter total, Timer duration) {}

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
