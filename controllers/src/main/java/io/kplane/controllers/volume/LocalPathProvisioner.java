package io.kplane.controllers.volume;

import io.kplane.api.core.HostPathVolumeSource;
import io.kplane.api.core.ObjectReference;
import io.kplane.api.core.PersistentVolume;
import io.kplane.api.core.PersistentVolumeClaim;
import io.kplane.api.core.PersistentVolumeClaimSpec;
import io.kplane.api.core.PersistentVolumeClaimStatus;
import io.kplane.api.core.PersistentVolumeClaimStatusBuilder;
import io.kplane.api.core.PersistentVolumeSpec;
import io.kplane.api.core.PersistentVolumeSpecBuilder;
import io.kplane.api.core.PersistentVolumeStatus;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.ObjectKeys;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.controller.Controller;
import io.kplane.client.controller.Reconciler;
import io.kplane.client.controller.Result;
import io.kplane.client.informer.ResourceEventHandler;
import io.kplane.client.informer.SharedInformer;
import io.kplane.client.time.Clock;
import io.kplane.client.workqueue.RateLimitingQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds PersistentVolumeClaims to directories, as rancher's local-path-provisioner does: a claim with
 * no {@code volumeName} whose storage class is unset or {@value #STORAGE_CLASS} gets a directory
 * {@code <volume-dir>/pvc-<claim uid>_<namespace>_<name>} and a PersistentVolume {@code pvc-<claim uid>}
 * of the requested capacity with {@code hostPath.path} set to that directory and reclaim policy
 * Delete; the claim becomes Bound. A claim naming an existing Available volume is bound to it. When a
 * claim goes, its volume is released: with reclaim policy Delete the directory and the volume are
 * removed, with Retain the volume stays Released and the data stays.
 * <p>The kubelet finds a claim's directory through the claim's {@code spec.volumeName} and that
 * volume's {@code spec.hostPath.path} (or {@code spec.local.path}).
 */
public final class LocalPathProvisioner implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(LocalPathProvisioner.class);
    public static final String NAME = "local-path-provisioner";
    public static final String PROVISIONER = "kplane.io/local-path";
    public static final String STORAGE_CLASS = "local-path";
    static final String PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
    private static final String CLAIM_PREFIX = "claim:";
    private static final String VOLUME_PREFIX = "volume:";

    private final SharedInformer<PersistentVolumeClaim> claims;
    private final SharedInformer<PersistentVolume> volumes;
    private final KubeClient client;
    private final Path volumeDir;
    private final RateLimitingQueue<String> queue;
    private final Controller controller;

    public LocalPathProvisioner(
            SharedInformer<PersistentVolumeClaim> claims,
            SharedInformer<PersistentVolume> volumes,
            KubeClient client,
            Clock clock,
            Path volumeDir,
            int workers) {
        this.claims = claims;
        this.volumes = volumes;
        this.client = client;
        this.volumeDir = volumeDir.toAbsolutePath().normalize();
        this.queue = RateLimitingQueue.create(clock);
        this.controller = Controller.builder()
                .name(NAME)
                .workers(workers)
                .queue(queue)
                .reconciler(this)
                .build();
        claims.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(PersistentVolumeClaim claim, boolean isInInitialList) {
                queue.add(CLAIM_PREFIX + claim.key());
            }

            @Override
            public void onUpdate(PersistentVolumeClaim oldClaim, PersistentVolumeClaim newClaim) {
                queue.add(CLAIM_PREFIX + newClaim.key());
            }

            @Override
            public void onDelete(PersistentVolumeClaim claim, boolean finalStateUnknown) {
                String volume = claim.spec() == null ? null : claim.spec().volumeName();
                if (volume != null && !volume.isEmpty()) {
                    queue.add(VOLUME_PREFIX + volume);
                }
            }
        });
        volumes.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(PersistentVolume pv, boolean isInInitialList) {
                queue.add(VOLUME_PREFIX + pv.name());
            }

            @Override
            public void onUpdate(PersistentVolume oldPv, PersistentVolume newPv) {
                queue.add(VOLUME_PREFIX + newPv.name());
            }
        });
    }

    public void startWorkers() {
        controller.start();
    }

    public void stop(Duration timeout) throws InterruptedException {
        controller.stop(timeout);
    }

    /** Where a claim's directory is. */
    public Path directoryFor(PersistentVolumeClaim claim) {
        return volumeDir.resolve("pvc-" + claim.uid() + "_" + claim.namespace() + "_" + claim.name());
    }

    @Override
    public Result reconcile(String key) {
        try {
            if (key.startsWith(CLAIM_PREFIX)) {
                return syncClaim(key.substring(CLAIM_PREFIX.length()));
            }
            return syncVolume(key.substring(VOLUME_PREFIX.length()));
        } catch (ApiException e) {
            if (e.isConflict() || e.isNotFound()) {
                return Result.requeue(); // the cache was behind: look again
            }
            throw e;
        }
    }

    private Result syncClaim(String key) {
        ObjectKeys.Key k = ObjectKeys.split(key);
        Optional<? extends PersistentVolumeClaim> cached = claims.lister().get(k.namespace(), k.name());
        if (cached.isEmpty() || cached.get().metadata().deletionTimestamp() != null) {
            return Result.done();
        }
        PersistentVolumeClaim claim = cached.get();
        PersistentVolumeClaimSpec spec = claim.spec();
        String phase = claim.status() == null ? null : claim.status().phase();
        if (spec == null) {
            return Result.done();
        }
        if (spec.volumeName() != null && !spec.volumeName().isEmpty()) {
            if ("Bound".equals(phase)) {
                return Result.done();
            }
            Optional<? extends PersistentVolume> volume = volumes.lister().get(spec.volumeName());
            if (volume.isEmpty()) {
                return Result.done(); // pre-bound to a volume that does not exist (yet): wait for it
            }
            return bind(claim, volume.get());
        }
        String storageClass = spec.storageClassName();
        if (storageClass != null && !storageClass.equals(STORAGE_CLASS)) {
            return Result.done(); // another class, or "" (static binding only): not ours
        }
        String storage = spec.resources() == null || spec.resources().requests() == null
                ? null
                : spec.resources().requests().get("storage");
        Path dir = directoryFor(claim);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        String volumeName = "pvc-" + claim.uid();
        PersistentVolume volume =
                volumes.lister().get(volumeName).map(v -> (PersistentVolume) v).orElse(null);
        if (volume == null) {
            ObjectMeta meta = ObjectMetaBuilder.builder()
                    .name(volumeName)
                    .annotations(Map.of(PROVISIONED_BY, PROVISIONER))
                    .build();
            PersistentVolumeSpec pvSpec = PersistentVolumeSpecBuilder.builder()
                    .capacity(Map.of("storage", storage))
                    .accessModes(spec.accessModes())
                    .claimRef(new ObjectReference(
                            "PersistentVolumeClaim",
                            claim.namespace(),
                            claim.name(),
                            claim.uid(),
                            "v1",
                            claim.metadata().resourceVersion(),
                            null))
                    .persistentVolumeReclaimPolicy("Delete")
                    .storageClassName(storageClass)
                    .volumeMode(spec.volumeMode())
                    .hostPath(new HostPathVolumeSource(dir.toString(), "DirectoryOrCreate"))
                    .build();
            try {
                volume = client.resource(PersistentVolume.class)
                        .create(new PersistentVolume(null, null, meta, pvSpec, null));
                log.info("provisioned volume {} at {} for claim {}", volumeName, dir, claim.key());
            } catch (ApiException e) {
                if (!e.isAlreadyExists()) {
                    throw e;
                }
                volume = client.resource(PersistentVolume.class).get(volumeName);
            }
        }
        return bind(claim, volume);
    }

    /** Marks both sides bound: the volume's status, the claim's volumeName, then the claim's status. */
    private Result bind(PersistentVolumeClaim claim, PersistentVolume volume) {
        PersistentVolumeSpec pvSpec = volume.spec();
        if (pvSpec.claimRef() == null) {
            if (volume.status() != null && !"Available".equals(volume.status().phase())) {
                return Result.done();
            }
            volume = client.resource(PersistentVolume.class)
                    .update(volume.withSpec(pvSpec.withClaimRef(new ObjectReference(
                            "PersistentVolumeClaim",
                            claim.namespace(),
                            claim.name(),
                            claim.uid(),
                            "v1",
                            claim.metadata().resourceVersion(),
                            null))));
        } else if (!claim.uid().equals(pvSpec.claimRef().uid())
                && pvSpec.claimRef().uid() != null) {
            log.warn("claim {} names volume {}, which is bound to another claim", claim.key(), volume.name());
            return Result.done();
        }
        if (volume.status() == null || !"Bound".equals(volume.status().phase())) {
            client.resource(PersistentVolume.class)
                    .updateStatus(volume.withStatus(new PersistentVolumeStatus("Bound", null, null, null)));
        }
        PersistentVolumeClaim current = claim;
        if (current.spec().volumeName() == null || current.spec().volumeName().isEmpty()) {
            Map<String, String> annotations =
                    new LinkedHashMap<>(current.metadata().annotationsOrEmpty());
            annotations.put("pv.kubernetes.io/bind-completed", "yes");
            annotations.put("pv.kubernetes.io/bound-by-controller", "yes");
            annotations.put("volume.kubernetes.io/storage-provisioner", PROVISIONER);
            current = client.resource(PersistentVolumeClaim.class)
                    .inNamespace(claim.namespace())
                    .update(current.withMetadata(current.metadata().withAnnotations(annotations))
                            .withSpec(current.spec().withVolumeName(volume.name())));
        }
        PersistentVolumeClaimStatus status = (current.status() == null
                        ? PersistentVolumeClaimStatusBuilder.builder().build()
                        : current.status())
                .withPhase("Bound")
                .withAccessModes(volume.spec().accessModes())
                .withCapacity(volume.spec().capacity());
        client.resource(PersistentVolumeClaim.class)
                .inNamespace(claim.namespace())
                .updateStatus(current.withStatus(status));
        log.info("bound claim {} to volume {}", claim.key(), volume.name());
        return Result.done();
    }

    /** A volume whose claim is gone is released: deleted with its directory (Delete) or kept (Retain). */
    private Result syncVolume(String name) {
        Optional<? extends PersistentVolume> cached = volumes.lister().get(name);
        if (cached.isEmpty()
                || cached.get().spec() == null
                || cached.get().spec().claimRef() == null) {
            return Result.done();
        }
        PersistentVolume volume = cached.get();
        ObjectReference ref = volume.spec().claimRef();
        Optional<PersistentVolumeClaim> claim = client.resource(PersistentVolumeClaim.class)
                .inNamespace(ref.namespace())
                .find(ref.name());
        if (claim.isPresent()
                && (ref.uid() == null || ref.uid().equals(claim.get().uid()))) {
            return Result.done();
        }
        String policy = volume.spec().persistentVolumeReclaimPolicy();
        if ("Delete".equals(policy)
                && PROVISIONER.equals(volume.metadata().annotationsOrEmpty().get(PROVISIONED_BY))) {
            deleteDirectory(volume);
            client.resource(PersistentVolume.class)
                    .delete(
                            name,
                            new DeleteOptions(
                                    null,
                                    null,
                                    null,
                                    new DeleteOptions.Preconditions(volume.uid(), null),
                                    null,
                                    null,
                                    null));
            log.info("deleted volume {} and its directory: its claim {}/{} is gone", name, ref.namespace(), ref.name());
        } else if (volume.status() == null || !"Released".equals(volume.status().phase())) {
            client.resource(PersistentVolume.class)
                    .updateStatus(volume.withStatus(new PersistentVolumeStatus("Released", null, null, null)));
        }
        return Result.done();
    }

    /** Removes the volume's directory, but only one this provisioner made (inside its volume dir). */
    private void deleteDirectory(PersistentVolume volume) {
        if (volume.spec().hostPath() == null) {
            return;
        }
        Path dir = Path.of(volume.spec().hostPath().path()).toAbsolutePath().normalize();
        if (!dir.startsWith(volumeDir) || dir.equals(volumeDir) || !Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir, e);
        }
    }
}
