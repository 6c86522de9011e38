package io.kplane.controllers.runtime;

import io.kplane.api.util.DaemonThreads;
import io.kplane.client.KubeClient;
import io.kplane.client.lens.Lens;
import io.kplane.client.lens.LensAnnouncer;
import io.kplane.client.lens.LensRecorder;
import io.kplane.client.lens.SyncRecordPersister;
import io.kplane.client.time.Clock;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Turns a controller process's lens on (unless {@code --lens=false}): one {@link LensRecorder} for
 * the process, served on the health port's {@code /lens/*}, its workqueue and sync figures exported
 * as metrics ({@link LensMetrics}), its sync records persisted as SyncRecords ({@link SyncRecordPersister}),
 * and its endpoint announced in a Lease for the apiserver's /ui.
 */
public final class ComponentLens {
    private ComponentLens() {}

    public static Lens start(
            String component,
            String identity,
            Clock clock,
            KubeClient client,
            HealthServer health,
            MeterRegistry registry,
            ControllerOptions options) {
        if (!options.lens) {
            return Lens.NOOP;
        }
        LensRecorder recorder = new LensRecorder(component, identity, clock);
        LensMetrics.bind(recorder, registry);
        health.serveLens(recorder);
        // sync records outlive this process as SyncRecords, written off the syncs' path (docs/lens.md)
        SyncRecordPersister persister = SyncRecordPersister.start(client, recorder);
        LensMetrics.bindPersister(persister, registry);
        String endpoint = "http://" + options.advertiseAddress + ":" + health.port();
        // the first announcement is an API call: off the start path, which must not wait for the server;
        // it renews on the wall clock, not on `clock` (LensAnnouncer says why)
        LensAnnouncer announcer = new LensAnnouncer(client, component, endpoint, identity);
        DaemonThreads.newThread("lens-announcer", announcer::start).start();
        return recorder;
    }
}
