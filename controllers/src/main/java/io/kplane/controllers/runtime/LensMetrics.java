package io.kplane.controllers.runtime;

import io.kplane.client.lens.LensListener;
import io.kplane.client.lens.LensRecord;
import io.kplane.client.lens.LensRecorder;
import io.kplane.client.lens.QueueState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exports the lens's figures with upstream's workqueue metric names and labels
 * ({@code workqueue_depth}, {@code workqueue_adds_total}, {@code workqueue_queue_duration_seconds},
 * {@code workqueue_work_duration_seconds}, {@code workqueue_unfinished_work_seconds},
 * {@code workqueue_longest_running_processor_seconds}, {@code workqueue_retries_total}, label
 * {@code name}), plus kplane's own bounded-label ones: {@code kplane_lens_sync_decisions_total}
 * (controller, decision), {@code kplane_informer_lists_total} and {@code kplane_informer_watch_restarts_total}
 * (resource, reason), {@code kplane_lens_records_dropped_total}. Every number comes from the same
 * records the UI shows.
 */
public final class LensMetrics implements LensListener {
    /** Upstream's buckets for queue and work durations: 1e-8 s × 10^n, n = 0..9. */
    private static final double[] DURATION_BUCKETS = {1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10};
    /** Decisions are a small fixed vocabulary per controller; anything else is counted as "other". */
    private static final int MAX_DECISION_LABELS = 64;

    private final LensRecorder lens;
    private final MeterRegistry registry;
    private final Map<String, Counter> adds = new ConcurrentHashMap<>();
    private final Map<String, Counter> retries = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> queued = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> worked = new ConcurrentHashMap<>();
    private final Map<String, Counter> decisions = new ConcurrentHashMap<>();
    private final Set<String> gaugedQueues = ConcurrentHashMap.newKeySet();

    private LensMetrics(LensRecorder lens, MeterRegistry registry) {
        this.lens = lens;
        this.registry = registry;
    }

    public static LensMetrics bind(LensRecorder lens, MeterRegistry registry) {
        LensMetrics metrics = new LensMetrics(lens, registry);
        lens.addListener(metrics);
        io.micrometer.core.instrument.FunctionCounter.builder(
                        "kplane_lens_records_dropped", lens, l -> l.droppedTotal())
                .description("Lens records dropped while sampling under load")
                .register(registry);
        return metrics;
    }

    /**
     * The SyncRecord persister's counters: {@code kplane_lens_records_persist_dropped_total} (records
     * never stored: dropped under pressure or lost in a failed write) and
     * {@code kplane_lens_records_persisted_total}.
     */
    public static void bindPersister(io.kplane.client.lens.SyncRecordPersister persister, MeterRegistry registry) {
        io.micrometer.core.instrument.FunctionCounter.builder(
                        "kplane_lens_records_persist_dropped", persister, p -> p.droppedTotal())
                .description("Sync records not persisted as SyncRecords (queue full or write failed)")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder(
                        "kplane_lens_records_persisted", persister, p -> p.persistedTotal())
                .description("Sync records persisted as SyncRecords")
                .register(registry);
    }

    /** Registers the gauges of a queue the first time it is seen. */
    private void gauges(String queue) {
        if (!gaugedQueues.add(queue)) {
            return;
        }
        QueueState state = (QueueState) lens.queue(queue);
        Tags tags = Tags.of("name", queue);
        Gauge.builder("workqueue_depth", state, QueueState::depth)
                .tags(tags)
                .description("Current depth of workqueue")
                .register(registry);
        Gauge.builder("workqueue_unfinished_work_seconds", state, QueueState::unfinishedWorkSeconds)
                .tags(tags)
                .description(
                        "How many seconds of work has done that is in progress and hasn't been observed by work_duration.")
                .register(registry);
        Gauge.builder("workqueue_longest_running_processor_seconds", state, QueueState::longestRunningSeconds)
                .tags(tags)
                .description("How many seconds has the longest running processor for workqueue been running.")
                .register(registry);
    }

    /** Creates a queue's meters up front, so they are scraped (at zero) before its first item. */
    @Override
    public void queueCreated(String name) {
        gauges(name);
        counter(adds, "workqueue_adds", "Total number of adds handled by workqueue", name);
        counter(retries, "workqueue_retries", "Total number of retries handled by workqueue", name);
        summary(
                queued,
                "workqueue_queue_duration_seconds",
                "How long in seconds an item stays in workqueue before being requested.",
                name);
        summary(
                worked,
                "workqueue_work_duration_seconds",
                "How long in seconds processing an item from workqueue takes.",
                name);
    }

    private Counter counter(Map<String, Counter> map, String metric, String help, String queue) {
        return map.computeIfAbsent(
                queue,
                q -> Counter.builder(metric).tag("name", q).description(help).register(registry));
    }

    private DistributionSummary summary(
            Map<String, DistributionSummary> map, String metric, String help, String queue) {
        return map.computeIfAbsent(queue, q -> DistributionSummary.builder(metric)
                .tag("name", q)
                .description(help)
                .serviceLevelObjectives(DURATION_BUCKETS)
                .register(registry));
    }

    @Override
    public void added(String queue) {
        gauges(queue);
        counter(adds, "workqueue_adds", "Total number of adds handled by workqueue", queue)
                .increment();
    }

    @Override
    public void retried(String queue) {
        counter(retries, "workqueue_retries", "Total number of retries handled by workqueue", queue)
                .increment();
    }

    @Override
    public void queued(String queue, double seconds) {
        summary(
                        queued,
                        "workqueue_queue_duration_seconds",
                        "How long in seconds an item stays in workqueue before being requested.",
                        queue)
                .record(seconds);
    }

    @Override
    public void worked(String queue, double seconds) {
        summary(
                        worked,
                        "workqueue_work_duration_seconds",
                        "How long in seconds processing an item from workqueue takes.",
                        queue)
                .record(seconds);
    }

    @Override
    public void recorded(LensRecord record) {
        if (record.sync() != null) {
            String decision = record.sync().error() != null
                    ? "error"
                    : record.sync().decision() == null ? "none" : record.sync().decision();
            String key = record.controller() + "|" + decision;
            Counter c = decisions.get(key);
            if (c == null) {
                if (decisions.size() >= MAX_DECISION_LABELS) {
                    key = record.controller() + "|other";
                    decision = "other";
                }
                String d = decision;
                c = decisions.computeIfAbsent(key, k -> Counter.builder("kplane_lens_sync_decisions")
                        .description("Syncs by controller and decision (the lens's sync records)")
                        .tags("controller", record.controller(), "decision", d)
                        .register(registry));
            }
            c.increment();
        } else if ("reflector".equals(record.stage())) {
            if ("list-end".equals(record.type())) {
                Counter.builder("kplane_informer_lists")
                        .description("Informer lists (initial and relists)")
                        .tag("resource", String.valueOf(record.resource()))
                        .register(registry)
                        .increment();
            } else if ("watch-end".equals(record.type()) && record.detail() != null) {
                Counter.builder("kplane_informer_watch_restarts")
                        .description("Informer watches ended, by reason")
                        .tags(
                                "resource",
                                String.valueOf(record.resource()),
                                "reason",
                                String.valueOf(record.detail().get("reason")))
                        .register(registry)
                        .increment();
            }
        }
    }
}
