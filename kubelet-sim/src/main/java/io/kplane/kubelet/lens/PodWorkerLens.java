package io.kplane.kubelet.lens;

import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.lens.Lens;
import io.kplane.client.lens.LensRecord;
import io.kplane.kubelet.pod.PodStatusWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The kubelet's pod-worker decisions as lens records (stage {@code kubelet}), taken where the pod
 * worker already reports them, so the worker itself is not touched: every event it emits is a
 * decision (type = the event reason: {@code Pulled}/{@code Created}/{@code Started} = start attempt,
 * {@code BackOff} = crash-loop back-off, {@code Killing} = kill, {@code Failed}...), and every status
 * write is a {@code status-written} record with the phase, restarts and the resourceVersion returned.
 */
public final class PodWorkerLens {
    private PodWorkerLens() {}

    /**
     * Persists the pod-worker records as SyncRecords ({@code <pod>.pod.pod-worker}), flushed once a second
     * so the handful of records a short pod makes coalesce into one write; counted in
     * {@code kplane_lens_records_persist_dropped_total} / {@code kplane_lens_records_persisted_total}.
     */
    public static io.kplane.client.lens.SyncRecordPersister persist(
            io.kplane.client.KubeClient client,
            io.kplane.client.lens.LensRecorder lens,
            io.micrometer.core.instrument.MeterRegistry metrics) {
        io.kplane.client.lens.SyncRecordPersister persister = new io.kplane.client.lens.SyncRecordPersister(
                client,
                lens.clock(),
                lens.component(),
                io.kplane.client.lens.SyncRecordPersister.DEFAULT_MAX_PENDING,
                java.time.Duration.ofSeconds(1));
        lens.addListener(persister);
        lens.persistDropped(persister::droppedTotal);
        io.micrometer.core.instrument.FunctionCounter.builder(
                        "kplane_lens_records_persist_dropped", persister, p -> p.droppedTotal())
                .description("Sync records not persisted as SyncRecords (queue full or write failed)")
                .register(metrics);
        io.micrometer.core.instrument.FunctionCounter.builder(
                        "kplane_lens_records_persisted", persister, p -> p.persistedTotal())
                .description("Sync records persisted as SyncRecords")
                .register(metrics);
        return persister.startWriter();
    }

    public static EventRecorder events(EventRecorder delegate, Lens lens, String node) {
        if (!lens.enabled()) {
            return delegate;
        }
        return (involved, type, reason, message) -> {
            delegate.event(involved, type, reason, message);
            if (!(involved instanceof Pod pod)) {
                return; // the pod-worker lens records pod events only
            }
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("eventType", type);
            detail.put("message", message);
            detail.put("node", node);
            detail.put("restarts", restarts(pod.status()));
            lens.record(LensRecord.of(
                            "pod-worker",
                            "kubelet",
                            reason,
                            "pods",
                            pod.key(),
                            pod.metadata().resourceVersion(),
                            detail)
                    .withUid(pod.metadata().uid()));
        };
    }

    public static PodStatusWriter statusWriter(PodStatusWriter delegate, Lens lens, String node) {
        if (!lens.enabled()) {
            return delegate;
        }
        return new PodStatusWriter() {
            @Override
            public Pod writeStatus(Pod pod, PodStatus status) {
                Map<String, Object> detail = new LinkedHashMap<>();
                detail.put("phase", status == null ? null : status.phase());
                detail.put("restarts", restarts(status));
                detail.put("node", node);
                try {
                    Pod written = delegate.writeStatus(pod, status);
                    lens.record(LensRecord.of(
                                    "pod-worker",
                                    "kubelet",
                                    "status-written",
                                    "pods",
                                    pod.key(),
                                    written == null ? null : written.metadata().resourceVersion(),
                                    detail)
                            .withUid(pod.metadata().uid()));
                    return written;
                } catch (RuntimeException e) {
                    detail.put("error", e.getMessage());
                    lens.record(LensRecord.of(
                                    "pod-worker", "kubelet", "status-write-failed", "pods", pod.key(), null, detail)
                            .withUid(pod.metadata().uid()));
                    throw e;
                }
            }

            @Override
            public void finishDeletion(Pod pod) {
                delegate.finishDeletion(pod);
                lens.record(
                        LensRecord.of("pod-worker", "kubelet", "deleted", "pods", pod.key(), null, Map.of("node", node))
                                .withUid(pod.metadata().uid()));
            }
        };
    }

    private static int restarts(PodStatus status) {
        int n = 0;
        if (status != null && status.containerStatuses() != null) {
            for (ContainerStatus cs : status.containerStatuses()) {
                n += cs.restartCount() == null ? 0 : cs.restartCount();
            }
        }
        return n;
    }
}
