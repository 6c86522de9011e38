package io.kplane.controllers.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.lens.LensJson;
import io.kplane.client.lens.LensRecord;
import io.kplane.client.lens.LensRecorder;
import io.kplane.client.lens.SyncRecordPersister;
import io.kplane.client.lens.SyncSummary;
import io.kplane.client.time.Clock;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With the API server unreachable the persister neither blocks the syncs that report to it nor grows:
 * records for objects beyond its pending bound are dropped at once, those whose write fails are dropped
 * too, and every one is counted (metric and snapshot).
 */
class SyncRecordPersisterDropTest {
    @Test
    void anUnreachableApiDropsAndCountsInsteadOfBlocking() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        KubeClient client = KubeClient.create(ClientConfig.forServer("http://127.0.0.1:" + port));
        LensRecorder lens = new LensRecorder("job-controller", "test", Clock.system());
        PrometheusMeterRegistry registry = HealthServer.newRegistry();
        try (SyncRecordPersister persister =
                new SyncRecordPersister(client, lens.clock(), "job-controller", 3, Duration.ofMillis(50))) {
            lens.addListener(persister);
            lens.persistDropped(persister::droppedTotal);
            LensMetrics.bindPersister(persister, registry);
            persister.startWriter();

            long start = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                SyncSummary sync = new SyncSummary(
                        List.of(), 0, Map.of("active", i), "reconciling", null, List.of(), List.of(), 0.1, null, null);
                lens.record(new LensRecord(
                        0,
                        null,
                        null,
                        "job",
                        "sync",
                        "sync",
                        "jobs",
                        "default/job-" + (i % 50),
                        "1",
                        "uid-" + (i % 50),
                        null,
                        sync));
            }
            double ms = (System.nanoTime() - start) / 1e6;
            assertThat(ms).as("200 syncs reported without waiting for the API").isLessThan(2000);
            assertThat(persister.pendingObjects()).isLessThanOrEqualTo(3);

            // Every one of the 200 records ends dropped (none supersedes another: at most 4 per object, the
            // cap is 10). Wait for all of them: with fewer, a failing write may still be counting its
            // records while the snapshot and the metric are read below.
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> persister.pendingObjects() == 0 && persister.droppedTotal() == 200);
            assertThat(persister.persistedTotal()).isZero();
            assertThat(LensJson.snapshot(lens).get("persistDroppedRecords")).isEqualTo(persister.droppedTotal());
            assertThat(registry.scrape())
                    .containsPattern("(?m)^kplane_lens_records_persist_dropped_total(\\{[^}]*})? "
                            + persister.droppedTotal() + "\\.0$");
        }
    }
}
