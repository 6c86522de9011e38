package io.kplane.kubelet.volume;

import io.kplane.api.core.Container;
import io.kplane.api.core.EventType;
import io.kplane.api.core.Pod;
import io.kplane.api.core.Volume;
import io.kplane.api.core.VolumeMount;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.informer.ResourceEventHandler;
import io.kplane.kubelet.config.ConfigObjects;
import io.kplane.kubelet.config.PodViews;
import io.kplane.kubelet.pod.Expansion;
import io.kplane.kubelet.runtime.ContainerStartException;
import io.kplane.kubelet.runtime.Mount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares a pod's volumes on the node, like the kubelet's volume manager, and tells the runtime what
 * to mount where. Every volume lives in {@code <root>/pods/<uid>/volumes/kubernetes.io~<plugin>/<name>}
 * (as in the kubelet), except hostPath and persistentVolumeClaim, which are node directories.
 *
 * <ul>
 *   <li>configMap, secret, downwardAPI and projected volumes are written with {@link AtomicWriter} before
 *       the first container starts and again every sync period while the pod lives, so a changed
 *       ConfigMap reaches the running pod as one atomic switch; they are always mounted read-only.</li>
 *   <li>A volume that cannot be set up (missing ConfigMap, unbound claim, hostPath type check) keeps the
 *       containers waiting ContainerCreating with a FailedMount event, and is retried.</li>
 *   <li>A volume with a source kplane does not implement is an error, never ignored.</li>
 * </ul>
 */
public final class VolumeManager implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(VolumeManager.class);

    private final Path podsDir;
    private final ConfigObjects objects;
    private final EventRecorder events;
    private final VolumePayloads payloads;
    private final ClaimPaths claims;
    private final Map<String, PodVolumes> pods = new ConcurrentHashMap<>();
    private final ScheduledExecutorService refresher =
            Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("volume-refresh"));

    /** What is set up for one pod. */
    private static final class PodVolumes {
        volatile Pod pod;
        final Map<String, Path> paths = new HashMap<>();
        final Set<String> readOnlyVolumes = new HashSet<>();
        final Set<String> warned = new HashSet<>();
    }

    /**
     * @param podsDir    {@code <root>/pods}
     * @param syncPeriod how often the files of configMap/secret/downwardAPI/projected volumes are refreshed
     */
    public VolumeManager(
            Path podsDir, ConfigObjects objects, EventRecorder events, String hostIp, Duration syncPeriod) {
        this.podsDir = podsDir;
        this.objects = objects;
        this.events = events;
        this.payloads = new VolumePayloads(objects, hostIp);
        this.claims = new ClaimPaths(objects);
        long ms = Math.max(100, syncPeriod.toMillis());
        refresher.scheduleWithFixedDelay(this::refreshAll, ms, ms, TimeUnit.MILLISECONDS);
    }

    public ConfigObjects objects() {
        return objects;
    }

    /** Keeps the newest copy of each pod (labels and annotations for downwardAPI files). */
    public ResourceEventHandler<Pod> podUpdates() {
        return new ResourceEventHandler<>() {
            @Override
            public void onUpdate(Pod oldObj, Pod newObj) {
                PodVolumes st = pods.get(newObj.metadata().uid());
                if (st != null) {
                    st.pod = newObj;
                }
            }
        };
    }

    /**
     * Sets up every volume of the pod (once; the projected ones are rewritten if changed) and returns the
     * container's mounts, parents before children.
     *
     * @param env the container's environment, for {@code subPathExpr}
     */
    public List<Mount> mountsFor(Pod pod, Container container, Map<String, String> env) throws ContainerStartException {
        List<Volume> volumes = PodViews.volumes(pod.spec());
        List<VolumeMount> wanted = PodViews.volumeMounts(container);
        if (volumes.isEmpty() && wanted.isEmpty()) {
            return List.of();
        }
        String uid = pod.metadata().uid();
        PodVolumes st = pods.computeIfAbsent(uid, u -> new PodVolumes());
        st.pod = pod;
        synchronized (st) {
            for (Volume v : volumes) {
                try {
                    setUp(st, pod, v);
                } catch (VolumeSetupException e) {
                    throw ContainerStartException.mountFailed(
                            "MountVolume.SetUp failed for volume \"" + v.name() + "\" : " + e.getMessage());
                }
            }
            List<Mount> mounts = new ArrayList<>();
            for (VolumeMount vm : wanted) {
                Path base = st.paths.get(vm.name());
                if (base == null) {
                    throw ContainerStartException.waiting(
                            ContainerStartException.CREATE_CONFIG_ERROR,
                            "cannot find volume \"" + vm.name() + "\" to mount into container \"" + container.name()
                                    + "\"");
                }
                String sub = vm.subPathExpr() != null && !vm.subPathExpr().isEmpty()
                        ? Expansion.expand(vm.subPathExpr(), env::get)
                        : vm.subPath();
                Path source = base;
                if (sub != null && !sub.isEmpty()) {
                    source = subPath(base, sub, vm, container);
                }
                boolean readOnly = vm.isReadOnly() || st.readOnlyVolumes.contains(vm.name());
                mounts.add(new Mount(source, vm.mountPath(), readOnly));
            }
            mounts.sort(Comparator.comparingInt(
                    m -> Path.of(m.containerPath()).normalize().getNameCount()));
            return mounts;
        }
    }

    /**
     * The kubelet creates a missing subPath directory; a subPath may not leave its volume (a symlink
     * pointing outside is refused as well, as the kubelet's safe subpath mounting does).
     */
    private static Path subPath(Path base, String sub, VolumeMount vm, Container container)
            throws ContainerStartException {
        if (sub.startsWith("/") || Arrays.asList(sub.split("/")).contains("..")) {
            throw ContainerStartException.waiting(
                    ContainerStartException.CREATE_CONFIG_ERROR,
                    "subPath \"" + sub + "\" of volume \"" + vm.name() + "\" must be a relative path without '..'");
        }
        Path source = base.resolve(sub);
        try {
            if (!Files.exists(source)) {
                Files.createDirectories(source);
            }
            Path real = source.toRealPath();
            if (!real.startsWith(base.toRealPath())
                    && !real.startsWith(
                            base.toRealPath().resolve(AtomicWriter.DATA_DIR).toRealPath())) {
                throw ContainerStartException.waiting(
                        ContainerStartException.CREATE_CONFIG_ERROR,
                        "subpath \"" + sub + "\" of volume \"" + vm.name() + "\" is outside the volume");
            }
        } catch (IOException e) {
            throw ContainerStartException.waiting(
                    ContainerStartException.CREATE_CONFIG_ERROR,
                    "failed to prepare subPath for volumeMount \"" + vm.name() + "\" of container \"" + container.name()
                            + "\": " + e.getMessage());
        }
        return source;
    }

    private void setUp(PodVolumes st, Pod pod, Volume v) throws VolumeSetupException {
        String uid = pod.metadata().uid();
        if (v.configMap() != null) {
            writeProjection(st, v, plugin(uid, "configmap", v), payloads.configMap(pod, v.configMap()));
        } else if (v.secret() != null) {
            writeProjection(st, v, plugin(uid, "secret", v), payloads.secret(pod, v.secret()));
        } else if (v.downwardAPI() != null) {
            writeProjection(
                    st,
                    v,
                    plugin(uid, "downward-api", v),
                    payloads.downwardApi(
                            pod, v.downwardAPI().itemsOrEmpty(), v.downwardAPI().defaultMode()));
        } else if (v.projected() != null) {
            writeProjection(
                    st,
                    v,
                    plugin(uid, "projected", v),
                    payloads.projected(
                            pod,
                            v.projected(),
                            path -> warnOnce(
                                    st,
                                    pod,
                                    "token:" + v.name(),
                                    "FailedMount",
                                    "kplane does not issue "
                                            + "ServiceAccount tokens: the token file \"" + path
                                            + "\" of projected volume \""
                                            + v.name() + "\" is not written")));
        } else if (st.paths.containsKey(v.name())) {
            return; // emptyDir, hostPath and claims are set up once
        } else if (v.emptyDir() != null) {
            Path dir = plugin(uid, "empty-dir", v);
            String fallback = EmptyDirs.setUp(dir, v.emptyDir());
            if (fallback != null) {
                warnOnce(st, pod, "memory:" + v.name(), "FailedMount", "volume \"" + v.name() + "\": " + fallback);
            }
            st.paths.put(v.name(), dir);
        } else if (v.hostPath() != null) {
            st.paths.put(v.name(), HostPathCheck.check(v.hostPath()));
        } else if (v.persistentVolumeClaim() != null) {
            st.paths.put(
                    v.name(),
                    claims.resolve(
                            pod.metadata().namespace(),
                            v.persistentVolumeClaim().claimName()));
            if (Boolean.TRUE.equals(v.persistentVolumeClaim().readOnly())) {
                st.readOnlyVolumes.add(v.name());
            }
        } else {
            throw new VolumeSetupException("the volume's source is not supported by kplane (supported: configMap, "
                    + "secret, emptyDir, downwardAPI, projected, persistentVolumeClaim, hostPath)");
        }
    }

    private void writeProjection(PodVolumes st, Volume v, Path dir, Map<String, FileProjection> files)
            throws VolumeSetupException {
        try {
            if (AtomicWriter.write(dir, files) && st.paths.containsKey(v.name())) {
                log.info(
                        "updated volume {} of pod {}",
                        v.name(),
                        st.pod.metadata().name());
            }
        } catch (IOException e) {
            throw new VolumeSetupException("cannot write " + dir + ": " + e.getMessage());
        }
        st.paths.put(v.name(), dir);
        st.readOnlyVolumes.add(v.name());
    }

    private void warnOnce(PodVolumes st, Pod pod, String key, String reason, String message) {
        if (st.warned.add(key)) {
            events.event(pod, EventType.WARNING, reason, message);
        }
    }

    private Path plugin(String uid, String plugin, Volume v) {
        return podsDir.resolve(uid)
                .resolve("volumes")
                .resolve("kubernetes.io~" + plugin)
                .resolve(v.name());
    }

    /** Rewrites the files of every running pod's configMap/secret/downwardAPI/projected volumes if they changed. */
    void refreshAll() {
        for (var e : pods.entrySet()) {
            PodVolumes st = e.getValue();
            Pod pod = st.pod;
            if (pod == null || pod.isTerminal()) {
                continue;
            }
            synchronized (st) {
                for (Volume v : PodViews.volumes(pod.spec())) {
                    if (st.paths.containsKey(v.name())
                            && (v.configMap() != null
                                    || v.secret() != null
                                    || v.downwardAPI() != null
                                    || v.projected() != null)) {
                        try {
                            setUp(st, pod, v);
                        } catch (VolumeSetupException | RuntimeException ex) {
                            // the kubelet keeps the last good content when an update cannot be read
                            log.debug(
                                    "refresh of volume {} of pod {} failed: {}",
                                    v.name(),
                                    pod.metadata().name(),
                                    ex.getMessage());
                        }
                    }
                }
            }
        }
    }

    /** The pod is gone: unmount its tmpfs volumes (its directory is deleted by the caller). */
    public void cleanUp(String uid) {
        pods.remove(uid);
        EmptyDirs.unmountAll(podsDir.resolve(uid));
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
