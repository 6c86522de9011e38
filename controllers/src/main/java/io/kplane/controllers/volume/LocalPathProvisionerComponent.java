package io.kplane.controllers.volume;

import io.kplane.api.core.PersistentVolume;
import io.kplane.api.core.PersistentVolumeClaim;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import java.nio.file.Path;
import java.time.Duration;

/** The local-path provisioner as a {@link ControllerComponent}. */
public final class LocalPathProvisionerComponent implements ControllerComponent {
    private final Path volumeDir;

    public LocalPathProvisionerComponent(Path volumeDir) {
        this.volumeDir = volumeDir;
    }

    @Override
    public String name() {
        return LocalPathProvisioner.NAME;
    }

    @Override
    public Running register(ControllerContext ctx) {
        LocalPathProvisioner provisioner = new LocalPathProvisioner(
                ctx.informers().informerFor(PersistentVolumeClaim.class),
                ctx.informers().informerFor(PersistentVolume.class),
                ctx.client(),
                ctx.clock(),
                volumeDir,
                ctx.workers());
        return new Running() {
            @Override
            public void startWorkers() {
                provisioner.startWorkers();
            }

            @Override
            public void close() {
                try {
                    provisioner.stop(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
