package io.kplane.kubelet.runtime;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PullResponseItem;
import com.github.dockerjava.api.model.StreamType;
import com.github.dockerjava.api.model.Volume;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.core.command.WaitContainerResultCallback;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.time.Clock;
import io.kplane.kubelet.logs.CriLogWriter;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs containers through the Docker Engine API (Docker, or Podman's compatible service) on
 * {@code DOCKER_HOST}: pull per imagePullPolicy, create (named and labelled after the pod so that a
 * restarted kubelet finds them), start, follow the logs into the kubelet's own log files, wait, stop
 * with grace (SIGTERM, then SIGKILL), remove once the exit is recorded.
 *
 * <p>As Kubernetes does, {@code command} replaces the image's entrypoint and {@code args} its cmd.
 */
public final class DockerRuntime implements ContainerRuntime {
    private static final Logger log = LoggerFactory.getLogger(DockerRuntime.class);
    static final String LABEL_POD_UID = "io.kplane.pod.uid";
    static final String LABEL_POD_NAMESPACE = "io.kplane.pod.namespace";
    static final String LABEL_POD_NAME = "io.kplane.pod.name";
    static final String LABEL_CONTAINER = "io.kplane.container.name";
    static final String LABEL_ATTEMPT = "io.kplane.container.attempt";
    private static final String DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    private final DockerClient docker;
    private final Clock clock;
    private final String dockerHost;
    private final Map<String, String> nodeLabels;
    private final ExecutorService waiters = Executors.newCachedThreadPool(DaemonThreads.named("docker-wait"));

    public DockerRuntime(String dockerHost, Clock clock) {
        this(dockerHost, clock, Map.of());
    }

    /** @param nodeLabels put on every container, to find a node's containers ({@link NodeContainers}) */
    public DockerRuntime(String dockerHost, Clock clock, Map<String, String> nodeLabels) {
        this.dockerHost = dockerHost;
        this.nodeLabels = Map.copyOf(nodeLabels);
        this.clock = clock;
        DefaultDockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost(dockerHost)
                .withDockerTlsVerify(false)
                .build();
        ApacheDockerHttpClient http = new ApacheDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .maxConnections(256)
                .connectionTimeout(Duration.ofSeconds(10))
                .build();
        this.docker = DockerClientImpl.getInstance(config, http);
    }

    /** {@code DOCKER_HOST}, or the default socket. */
    public static String defaultHost() {
        String env = System.getenv("DOCKER_HOST");
        return env == null || env.isBlank() ? "unix:///var/run/docker.sock" : env;
    }

    /** Fails fast with a clear message when no engine answers. */
    public void ping() {
        try {
            docker.pingCmd().exec();
        } catch (RuntimeException e) {
            throw new IllegalStateException("no Docker Engine API at " + dockerHost + ": " + e.getMessage(), e);
        }
    }

    public DockerClient client() {
        return docker;
    }

    @Override
    public String type() {
        return "docker";
    }

    @Override
    public String version() {
        try {
            return "docker://" + docker.versionCmd().exec().getVersion();
        } catch (RuntimeException e) {
            return "docker://unknown";
        }
    }

    @Override
    public void ensureImage(ContainerLaunch launch) throws ContainerStartException {
        String image = launch.image();
        String policy = launch.imagePullPolicy() == null ? "IfNotPresent" : launch.imagePullPolicy();
        boolean present = imageConfig(image).isPresent();
        if ("Never".equals(policy)) {
            if (!present) {
                throw ContainerStartException.waiting(
                        ContainerStartException.ERR_IMAGE_NEVER_PULL,
                        "Container image \"" + image + "\" is not present with pull policy of Never");
            }
            return;
        }
        if (present && !"Always".equals(policy)) {
            return;
        }
        try {
            log.info("pulling image {} for {}", image, launch.describe());
            pull(image);
        } catch (RuntimeException e) {
            if (present) {
                // kplane runs where registries are often unreachable: a local copy beats failing the pod
                log.warn("pull of {} failed ({}); using the local image", image, firstLine(e.getMessage()));
                return;
            }
            throw ContainerStartException.waiting(
                    ContainerStartException.ERR_IMAGE_PULL,
                    "Failed to pull image \"" + image + "\": " + firstLine(e.getMessage()),
                    e);
        }
    }

    /**
     * Pulls and fails on an error in the progress stream. Not docker-java's PullImageResultCallback:
     * it trips over Podman's progress items, which carry no {@code status}.
     */
    private void pull(String image) {
        ImageName name = ImageName.parse(image);
        StringBuilder error = new StringBuilder();
        ResultCallback.Adapter<PullResponseItem> callback = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(PullResponseItem item) {
                if (item.getErrorDetail() != null && item.getErrorDetail().getMessage() != null) {
                    error.append(item.getErrorDetail().getMessage());
                } else if (item.getError() != null) {
                    error.append(item.getError());
                }
            }
        };
        try {
            docker.pullImageCmd(name.repository())
                    .withTag(name.tag())
                    .exec(callback)
                    .awaitCompletion(10, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
        if (error.length() > 0) {
            throw new IllegalStateException(error.toString());
        }
        if (imageConfig(image).isEmpty()) {
            throw new IllegalStateException("image not found after pull");
        }
    }

    private Optional<InspectImageResponse> imageConfig(String image) {
        try {
            return Optional.of(docker.inspectImageCmd(image).exec());
        } catch (NotFoundException e) {
            return Optional.empty();
        }
    }

    @Override
    public RunningContainer start(ContainerLaunch launch) throws ContainerStartException {
        String id;
        try {
            id = create(launch);
        } catch (ConflictException e) {
            // a container of this very attempt exists already (created just before a kubelet crash)
            Optional<RunningContainer> existing = reattach(launch, null, null);
            if (existing.isPresent()) {
                return existing.get();
            }
            throw ContainerStartException.waiting(ContainerStartException.CREATE_ERROR, firstLine(e.getMessage()), e);
        } catch (DockerException e) {
            throw ContainerStartException.waiting(ContainerStartException.CREATE_ERROR, firstLine(e.getMessage()), e);
        }
        try {
            docker.startContainerCmd(id).exec();
        } catch (DockerException e) {
            log.info("{} failed to start: {}", launch.describe(), firstLine(e.getMessage()));
            remove("docker://" + id);
            throw ContainerStartException.startError(firstLine(e.getMessage()));
        }
        InspectContainerResponse info = docker.inspectContainerCmd(id).exec();
        Instant startedAt = parseTime(info.getState().getStartedAt()).orElse(clock.now());
        log.info("started {} as docker container {}", launch.describe(), id.substring(0, 12));
        return new DockerContainer(launch, id, startedAt, null);
    }

    private String create(ContainerLaunch launch) {
        List<String> env = new ArrayList<>();
        boolean hasPath = launch.env().containsKey("PATH")
                || imageConfig(launch.image())
                        .map(i -> i.getConfig() == null ? null : i.getConfig().getEnv())
                        .map(e -> List.of(e).stream().anyMatch(v -> v.startsWith("PATH=")))
                        .orElse(false);
        if (!hasPath) {
            // containerd and Docker give a default PATH to images that set none
            env.add("PATH=" + DEFAULT_PATH);
        }
        env.add("HOSTNAME=" + launch.podName());
        launch.env().forEach((k, v) -> env.add(k + "=" + v));
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LABEL_POD_UID, launch.podUid());
        labels.put(LABEL_POD_NAMESPACE, launch.podNamespace());
        labels.put(LABEL_POD_NAME, launch.podName());
        labels.put(LABEL_CONTAINER, launch.containerName());
        labels.put(LABEL_ATTEMPT, Integer.toString(launch.attempt()));
        labels.putAll(nodeLabels);
        CreateContainerCmd cmd = docker.createContainerCmd(launch.image())
                .withName(containerName(launch))
                .withLabels(labels)
                .withEnv(env)
                .withHostName(launch.podName().length() > 63 ? launch.podName().substring(0, 63) : launch.podName());
        if (launch.workingDir() != null && !launch.workingDir().isEmpty()) {
            cmd.withWorkingDir(launch.workingDir());
        }
        if (launch.stdio().stdin() || launch.stdio().tty()) {
            // the spec's stdin/stdinOnce/tty, as the kubelet passes them in the CRI container config: what attach finds
            cmd.withStdinOpen(launch.stdio().stdin())
                    .withStdInOnce(launch.stdio().stdinOnce())
                    .withTty(launch.stdio().tty());
        }
        if (!launch.mounts().isEmpty()) {
            // the kubelet's prepared volume directories, bind-mounted at each mountPath (the engine shares our fs)
            cmd.withHostConfig(HostConfig.newHostConfig()
                    .withBinds(launch.mounts().stream()
                            .map(m -> new Bind(
                                    m.hostPath().toString(),
                                    new Volume(m.containerPath()),
                                    m.readOnly() ? AccessMode.ro : AccessMode.rw))
                            .toList()));
        }
        if (launch.command() != null && !launch.command().isEmpty()) {
            cmd.withEntrypoint(launch.command());
            cmd.withCmd(launch.args() == null ? List.of() : launch.args());
        } else if (launch.args() != null && !launch.args().isEmpty()) {
            cmd.withCmd(launch.args());
        }
        return cmd.exec().getId();
    }

    /**
     * The container's IP on the engine's network (each container has its own network namespace here, no
     * pod sandbox): where the kubelet connects for port forwarding, as the engine's inspect reports it.
     */
    @Override
    public String portForwardAddress(String containerId) throws IOException {
        String id = containerId != null && containerId.startsWith("docker://")
                ? containerId.substring("docker://".length())
                : containerId;
        InspectContainerResponse info;
        try {
            info = docker.inspectContainerCmd(id).exec();
        } catch (NotFoundException e) {
            throw new IOException("container not found (\"" + id + "\")", e);
        }
        if (info.getState() == null || !Boolean.TRUE.equals(info.getState().getRunning())) {
            throw new IOException("container is not running");
        }
        var settings = info.getNetworkSettings();
        if (settings != null
                && settings.getIpAddress() != null
                && !settings.getIpAddress().isEmpty()) {
            return settings.getIpAddress();
        }
        if (settings != null && settings.getNetworks() != null) {
            for (var network : settings.getNetworks().values()) {
                if (network.getIpAddress() != null && !network.getIpAddress().isEmpty()) {
                    return network.getIpAddress();
                }
            }
        }
        throw new IOException("the container has no IP address on the engine's network");
    }

    /** Deterministic per attempt, so the engine itself refuses to create one attempt twice. */
    static String containerName(ContainerLaunch launch) {
        return ("kplane_" + launch.containerName() + "_" + launch.podName() + "_" + launch.podNamespace() + "_"
                        + launch.podUid() + "_" + launch.attempt())
                .replaceAll("[^a-zA-Z0-9_.-]", "-");
    }

    @Override
    public Optional<RunningContainer> reattach(ContainerLaunch launch, String containerId, Instant startedAt) {
        String id = containerId != null && containerId.startsWith("docker://")
                ? containerId.substring("docker://".length())
                : findByLabels(launch).orElse(null);
        if (id == null) {
            return Optional.empty();
        }
        InspectContainerResponse info;
        try {
            info = docker.inspectContainerCmd(id).exec();
        } catch (NotFoundException e) {
            return Optional.empty();
        }
        if ("created".equals(info.getState().getStatus())) {
            // created but never started before the crash: starting it now is its first and only start
            docker.startContainerCmd(id).exec();
            info = docker.inspectContainerCmd(id).exec();
        }
        Instant started = parseTime(info.getState().getStartedAt()).orElse(clock.now());
        log.info(
                "re-attached to {} (docker container {}, {})",
                launch.describe(),
                id.substring(0, 12),
                info.getState().getStatus());
        return Optional.of(new DockerContainer(launch, id, started, launch.log().lastTimestamp()));
    }

    private Optional<String> findByLabels(ContainerLaunch launch) {
        List<Container> found = docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(
                        LABEL_POD_UID,
                        launch.podUid(),
                        LABEL_CONTAINER,
                        launch.containerName(),
                        LABEL_ATTEMPT,
                        Integer.toString(launch.attempt())))
                .exec();
        return found.stream().map(Container::getId).findFirst();
    }

    @Override
    public void discard(String containerId, Instant startedAt) {
        remove(containerId);
    }

    /** exec in (or, with an empty command, attach to) a running engine container: {@link DockerExec}. */
    @Override
    public ExecSession exec(String containerId, ExecSpec spec) throws ExecNotSupportedException {
        if (containerId == null || !containerId.startsWith("docker://")) {
            throw new ExecNotSupportedException("container is not running");
        }
        String id = containerId.substring("docker://".length());
        InspectContainerResponse info;
        try {
            info = docker.inspectContainerCmd(id).exec();
            if (info.getState() == null || !Boolean.TRUE.equals(info.getState().getRunning())) {
                throw new ExecNotSupportedException("container is not running");
            }
        } catch (com.github.dockerjava.api.exception.NotFoundException e) {
            throw new ExecNotSupportedException("container is not running");
        }
        boolean containerTty =
                info.getConfig() != null && Boolean.TRUE.equals(info.getConfig().getTty());
        return spec.command().isEmpty()
                ? DockerExec.attach(docker, dockerHost, id, spec, containerTty, waiters)
                : DockerExec.exec(docker, dockerHost, id, spec, waiters);
    }

    @Override
    public boolean tracksContainers() {
        return true;
    }

    @Override
    public void remove(String containerId) {
        if (containerId == null || !containerId.startsWith("docker://")) {
            return;
        }
        try {
            docker.removeContainerCmd(containerId.substring("docker://".length()))
                    .withForce(true)
                    .exec();
        } catch (NotFoundException e) {
            // already gone
        } catch (DockerException e) {
            log.warn("cannot remove container {}: {}", containerId, firstLine(e.getMessage()));
        }
    }

    /** Lists the containers this runtime made for a pod (to clean up after a deleted pod). */
    public List<String> containersOfPod(String podUid) {
        return docker
                .listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(LABEL_POD_UID, podUid))
                .exec()
                .stream()
                .map(c -> "docker://" + c.getId())
                .toList();
    }

    @Override
    public void close() {
        waiters.shutdownNow();
        try {
            docker.close();
        } catch (IOException e) {
            log.debug("closing docker client: {}", e.toString());
        }
    }

    private static Optional<Instant> parseTime(String value) {
        if (value == null || value.startsWith("0001-")) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(value));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        String m = message.strip();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /** One engine container: a thread copies its log, another waits for its exit. */
    private final class DockerContainer implements RunningContainer {
        private final ContainerLaunch launch;
        private final String id;
        private final Instant startedAt;
        private final CompletableFuture<ExitStatus> exited = new CompletableFuture<>();
        private volatile Clock.Timer killTimer;

        DockerContainer(ContainerLaunch launch, String id, Instant startedAt, Instant logsAfter) {
            this.launch = launch;
            this.id = id;
            this.startedAt = startedAt;
            waiters.execute(() -> follow(logsAfter));
        }

        private void follow(Instant logsAfter) {
            LogCopier copier = new LogCopier(launch.log(), logsAfter);
            try {
                var cmd = docker.logContainerCmd(id)
                        .withStdOut(true)
                        .withStdErr(true)
                        .withFollowStream(true)
                        .withTimestamps(true);
                if (logsAfter != null) {
                    cmd.withSince((int) logsAfter.getEpochSecond());
                }
                cmd.exec(copier).awaitCompletion();
                docker.waitContainerCmd(id)
                        .exec(new WaitContainerResultCallback())
                        .awaitStatusCode();
                InspectContainerResponse.ContainerState state =
                        docker.inspectContainerCmd(id).exec().getState();
                Clock.Timer timer = killTimer;
                if (timer != null) {
                    timer.cancel();
                }
                int code = state.getExitCodeLong() == null
                        ? 0
                        : state.getExitCodeLong().intValue();
                Instant finishedAt = parseTime(state.getFinishedAt()).orElse(clock.now());
                log.info("{} (docker container {}) exited with code {}", launch.describe(), id.substring(0, 12), code);
                String error = state.getError() == null || state.getError().isEmpty() ? null : state.getError();
                exited.complete(new ExitStatus(code, finishedAt, error));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exited.completeExceptionally(e);
            } catch (RuntimeException e) {
                log.warn("lost track of {}: {}", launch.describe(), firstLine(e.getMessage()));
                exited.completeExceptionally(e);
            }
        }

        @Override
        public String containerId() {
            return "docker://" + id;
        }

        @Override
        public Instant startedAt() {
            return startedAt;
        }

        @Override
        public CompletableFuture<ExitStatus> exited() {
            return exited;
        }

        @Override
        public void stop(Duration grace) {
            if (exited.isDone()) {
                return;
            }
            signal((!grace.isZero() && !grace.isNegative()) ? "TERM" : "KILL");
            if ((!grace.isZero() && !grace.isNegative()) && killTimer == null) {
                killTimer = clock.schedule(grace, () -> {
                    if (!exited.isDone()) {
                        log.info("{} still running after {}s grace: SIGKILL", launch.describe(), grace.toSeconds());
                        signal("KILL");
                    }
                });
            }
        }

        private void signal(String signal) {
            try {
                docker.killContainerCmd(id).withSignal(signal).exec();
            } catch (NotFoundException | ConflictException e) {
                // not running any more
            } catch (DockerException e) {
                log.warn("cannot signal {}: {}", launch.describe(), firstLine(e.getMessage()));
            }
        }
    }

    /** Docker log frames (with engine timestamps) → CRI records in the kubelet's log file. */
    private static final class LogCopier extends ResultCallback.Adapter<Frame> {
        private final CriLogWriter writer;
        private final Instant after;

        LogCopier(CriLogWriter writer, Instant after) {
            this.writer = writer;
            this.after = after;
        }

        @Override
        public void onNext(Frame frame) {
            byte[] payload = frame.getPayload();
            String stream = frame.getStreamType() == StreamType.STDERR ? "stderr" : "stdout";
            int space = indexOf(payload, (byte) ' ');
            Instant at = null;
            int start = 0;
            if (space > 0) {
                try {
                    at = Instant.parse(new String(payload, 0, space, java.nio.charset.StandardCharsets.US_ASCII));
                    start = space + 1;
                } catch (DateTimeParseException e) {
                    at = null;
                }
            }
            if (at == null) {
                at = Instant.now();
            }
            if (after != null && at.isBefore(after)) {
                return; // copied before the kubelet restarted
            }
            int lineStart = start;
            for (int i = start; i < payload.length; i++) {
                if (payload[i] == '\n') {
                    writer.write(stream, at, payload, lineStart, i - lineStart, true);
                    lineStart = i + 1;
                }
            }
            if (lineStart < payload.length) {
                writer.write(stream, at, payload, lineStart, payload.length - lineStart, false);
            }
        }

        private static int indexOf(byte[] b, byte v) {
            for (int i = 0; i < Math.min(b.length, 64); i++) {
                if (b[i] == v) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** repository[:tag] or repository@digest; the tag defaults to latest. */
    record ImageName(String repository, String tag) {
        static ImageName parse(String image) {
            int at = image.indexOf('@');
            if (at >= 0) {
                return new ImageName(image.substring(0, at), image.substring(at + 1));
            }
            int slash = image.lastIndexOf('/');
            int colon = image.lastIndexOf(':');
            if (colon > slash) {
                return new ImageName(image.substring(0, colon), image.substring(colon + 1));
            }
            return new ImageName(image, "latest");
        }
    }
}
