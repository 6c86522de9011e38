package io.kplane.kubelet;

import io.kplane.api.core.Pod;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.KubeClient;
import io.kplane.client.ListOptions;
import io.kplane.client.events.ApiEventRecorder;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.informer.Indexers;
import io.kplane.client.informer.ListerWatcher;
import io.kplane.client.informer.ReflectorOptions;
import io.kplane.client.informer.SharedIndexInformer;
import io.kplane.client.lens.LensAnnouncer;
import io.kplane.client.time.Clock;
import io.kplane.client.time.ClusterClock;
import io.kplane.kubelet.clock.ClockNotices;
import io.kplane.kubelet.config.ApiConfigObjects;
import io.kplane.kubelet.lens.PodWorkerLens;
import io.kplane.kubelet.logs.LogRegistry;
import io.kplane.kubelet.node.AdvertisedAddress;
import io.kplane.kubelet.node.NodeAgent;
import io.kplane.kubelet.pod.ApiPodStatusWriter;
import io.kplane.kubelet.pod.ContainerRecord;
import io.kplane.kubelet.pod.CrashLoopBackoff;
import io.kplane.kubelet.pod.PodManager;
import io.kplane.kubelet.pod.PodRecord;
import io.kplane.kubelet.pod.PodStateStore;
import io.kplane.kubelet.pod.WorkerSettings;
import io.kplane.kubelet.runtime.ContainerRuntime;
import io.kplane.kubelet.runtime.DockerRuntime;
import io.kplane.kubelet.runtime.NodeContainers;
import io.kplane.kubelet.runtime.ProcessRuntime;
import io.kplane.kubelet.server.KubeletServer;
import io.kplane.kubelet.stream.StateContainerLookup;
import io.kplane.kubelet.stream.StreamingServer;
import io.kplane.kubelet.volume.VolumeManager;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One simulated node: the kubelet endpoint, the node's registration and heartbeats, and the pod
 * workers fed by a watch of the pods bound to this node. Embeddable (tests, the all-in-one launcher)
 * and run as a process by {@link KubeletMain}.
 */
public final class Kubelet implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Kubelet.class);

    private final KubeletConfig config;
    private final Clock clock;
    private ContainerRuntime runtime;
    private KubeletServer server;
    private StreamingServer streaming;
    private NodeAgent node;
    private io.kplane.kubelet.node.EarlyRegistration earlyRegistration; // startRegistration(), if called
    private PodManager pods;
    private volatile SharedIndexInformer<Pod> informer; // read by /healthz?verbose on the server's threads
    private VolumeManager volumes;
    private Duration volumeSyncPeriod = Duration.ofSeconds(10);
    private LensAnnouncer lensAnnouncer;
    private io.kplane.client.lens.SyncRecordPersister lensPersister;
    // set by startLocal() for startNode()
    private KubeClient client;
    private PrometheusMeterRegistry metrics;
    private io.kplane.client.lens.LensRecorder lens;
    private LogRegistry logs;
    private PodStateStore states;
    private int streamingPort;
    private boolean ranBefore;

    public Kubelet(KubeletConfig config, Clock clock) {
        this(config, clock, java.util.function.UnaryOperator.identity());
    }

    /** {@code runtimeWrapper} wraps the configured runtime, e.g. to inject engine failures in tests. */
    public Kubelet(
            KubeletConfig config, Clock clock, java.util.function.UnaryOperator<ContainerRuntime> runtimeWrapper) {
        this.config = config;
        this.clock = clock;
        this.runtimeWrapper = runtimeWrapper;
    }

    private final java.util.function.UnaryOperator<ContainerRuntime> runtimeWrapper;

    /**
     * How often the files of configMap, secret, downwardAPI and projected volumes are compared with the API
     * objects and rewritten (the kubelet's sync period plus cache TTL; 10 s here). Before {@link #start()}.
     */
    public Kubelet withVolumeSyncPeriod(Duration period) {
        this.volumeSyncPeriod = period;
        return this;
    }

    /** Starts the node: {@link #startLocal()}, then {@link #startNode()}. */
    public Kubelet start() throws IOException, InterruptedException {
        startLocal();
        return startNode();
    }

    /**
     * The first half of {@link #start()}, which needs neither the API server nor the cluster time: the
     * container runtime and the kubelet endpoint (its {@code /healthz} answers 503 until {@link
     * #startNode()} is done). {@link KubeletMain} runs it while the cluster Clock is still awaited, so
     * that the JVM's cold start of the runtime and both servers (measured ~0.45 s of a quiet {@code up}'s
     * critical path, after the clock was listed) overlaps the wait for the API server.
     */
    public Kubelet startLocal() throws IOException {
        // a kubelet that ran before with this root directory (its pod state store's directory exists) most
        // likely has its Node registered already: the registration reads it first (NodeAgent.readFirst)
        ranBefore = java.nio.file.Files.isDirectory(config.rootDir().resolve("pods"));
        runtime = runtimeWrapper.apply(createRuntime());
        client = KubeClient.create(config.client());
        metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // upstream's rest_client_requests_total{code,method,host}, as client-go reports it
        client.raw().observeRequestResults((code, method, host) -> io.micrometer.core.instrument.Counter.builder(
                        io.kplane.client.metrics.RequestResultObserver.METRIC)
                .description(io.kplane.client.metrics.RequestResultObserver.HELP)
                .tags("code", code, "method", method, "host", host)
                .register(metrics)
                .increment());
        logs = new LogRegistry(config.rootDir(), config.logMaxBytes(), config.logMaxFiles(), clock::now);
        states = new PodStateStore(config.rootDir());
        // the JDK server keeps the plain endpoints on a loopback port; the streaming server in front of it
        // is what the node advertises (exec/attach/portforward need a protocol switch the JDK cannot do)
        server = new KubeletServer("127.0.0.1", 0, logs, config.tokens(), metrics, clock::now);
        // the lens (docs/lens.md): pod-worker decisions and the informer, on /lens/* of this port
        lens = new io.kplane.client.lens.LensRecorder("kubelet-" + config.nodeName(), config.nodeName(), clock);
        server.serveLens(lens);
        server.start();
        streaming = new StreamingServer(
                server.port(),
                config.tokens(),
                new StateContainerLookup(
                        states,
                        (ns, name) -> informer == null
                                ? java.util.Optional.empty()
                                : informer.lister().get(ns, name).map(p -> p.metadata()
                                        .uid())),
                runtime);
        streamingPort = streaming.listen(config.bind(), config.port());
        return this;
    }

    /**
     * Between {@link #startLocal()} and {@link #startNode()}, optional: creates (or reads) the Node object
     * in the background while the caller awaits the cluster Clock (the object carries no time; its status
     * does, and waits for {@link #startNode()}). {@link KubeletMain} calls it; without it, {@link
     * #startNode()} registers the Node as part of its first heartbeat.
     */
    public Kubelet startRegistration() {
        if (streaming == null) {
            throw new IllegalStateException("startLocal() first");
        }
        earlyRegistration = io.kplane.kubelet.node.EarlyRegistration.start(nodeAgent(), config.nodeName());
        return this;
    }

    /** The Node's agent, built once (by {@link #startRegistration()} or {@link #startNode()}). */
    private NodeAgent nodeAgent() {
        if (node == null) {
            node = new NodeAgent(
                            client,
                            clock,
                            config.nodeName(),
                            AdvertisedAddress.of(config.nodeAddress(), config.nodeName()),
                            streamingPort,
                            config.maxPods(),
                            runtime.version(),
                            config.leaseInterval(),
                            config.nodeStatusInterval())
                    .readFirst(ranBefore);
        }
        return node;
    }

    /**
     * The second half of {@link #start()}, after {@link #startLocal()}: registers the Node, starts the
     * pod workers on the pods bound to it, and marks the endpoint ready. Its times (heartbeats,
     * conditions, container timestamps) are the cluster clock's, so a caller that follows the cluster
     * Clock has its first state by now.
     */
    public Kubelet startNode() throws InterruptedException {
        if (streaming == null) {
            throw new IllegalStateException("startLocal() first");
        }
        int port = streamingPort;
        AdvertisedAddress address = AdvertisedAddress.of(config.nodeAddress(), config.nodeName());
        // renewed on the wall clock, not the cluster clock (LensAnnouncer); announced here, beside the Node
        lensAnnouncer = new LensAnnouncer(
                client, lens.component(), "http://" + address.internalIp() + ":" + port, config.nodeName());
        NodeAgent node = nodeAgent();
        io.kplane.kubelet.node.EarlyRegistration early = earlyRegistration;
        // The API round trips of the start that do not depend on each other run at once: the lens
        // announcement (its Lease read, then write), the Node's first heartbeat (its status and Lease; the
        // object itself was registered while the Clock was awaited, startRegistration) and the pod
        // informer's LIST (the pods bound to this node do not need the Node object). They ran one after
        // another, ~0.8 s of a quiet `up`'s critical path for the Node alone (docs/performance.md, "`up`'s
        // critical path"). Ready still means all three are done. The Node's status and the announcement
        // go first, before the pod workers' parts are built (they need neither), so that those requests
        // leave as soon as the cluster time is known (docs/performance.md, "the kubelet after the API serves").
        CompletableFuture<Void> announced = inBackground("lens-announce-" + config.nodeName(), lensAnnouncer::start);
        CompletableFuture<Void> registered = inBackground("node-register-" + config.nodeName(), () -> {
            if (early != null) {
                // its attempt in flight ends first: the heartbeat neither repeats nor races it
                awaitUninterruptibly(early);
            }
            node.start();
        });

        // pod-worker decisions outlive this process as SyncRecords (docs/lens.md); one write per pod per second at most
        lensPersister = io.kplane.kubelet.lens.PodWorkerLens.persist(client, lens, metrics);
        EventRecorder podEvents = PodWorkerLens.events(events(client), lens, config.nodeName());
        volumes = new VolumeManager(
                config.rootDir().resolve("pods"),
                new ApiConfigObjects(client.raw()),
                podEvents,
                address.internalIp(),
                volumeSyncPeriod);
        WorkerSettings settings = new WorkerSettings(
                config.nodeName(),
                address.internalIp(),
                config.rootDir(),
                runtime,
                states,
                PodWorkerLens.statusWriter(new ApiPodStatusWriter(client), lens, config.nodeName()),
                podEvents,
                logs,
                new CrashLoopBackoff(config.crashLoopBase(), config.crashLoopMax()),
                config.logMaxBytes(),
                config.logMaxFiles(),
                clock,
                volumes);
        pods = new PodManager(settings, config.maxPods());
        Gauge.builder("kubelet_running_pods", pods, PodManager::runningPods)
                .description("pods this kubelet runs (not terminal)")
                .register(metrics);

        informer = new SharedIndexInformer<>(
                "pods@" + config.nodeName(),
                ListerWatcher.of(client.pods(), ListOptions.fieldSelector("spec.nodeName=" + config.nodeName())),
                Clock.system(),
                ReflectorOptions.DEFAULT,
                Indexers.standard()); // reconnects: wall time
        informer.lens(lens);
        server.healthChecks(this::informerChecks);
        informer.addEventHandler(pods);
        informer.addEventHandler(volumes.podUpdates());
        if (clock instanceof ClusterClock cluster) {
            ClockNotices notices =
                    new ClockNotices(cluster, runtime.type(), informer.lister()::list, settings.events());
            informer.addEventHandler(notices);
            cluster.addListener(notices);
        }
        informer.start();
        if (!informer.waitForSync(Duration.ofMinutes(1))) {
            throw new IllegalStateException("could not list the pods of node " + config.nodeName());
        }
        cleanOrphans(states, logs);
        nodeContainers().ifPresent(c -> c.removeOrphans(live()));
        awaitStarted(announced);
        awaitStarted(registered);
        log.info(
                "kubelet-sim {} ready: runtime {}, endpoint port {}, root {}",
                config.nodeName(),
                runtime.type(),
                port,
                config.rootDir());
        server.markReady();
        return this;
    }

    private static void awaitUninterruptibly(io.kplane.kubelet.node.EarlyRegistration early) {
        try {
            early.finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs one step of {@link #startNode()} on a thread of its own. */
    private static CompletableFuture<Void> inBackground(String name, Runnable step) {
        return CompletableFuture.runAsync(
                step, task -> DaemonThreads.newThread(name, task).start());
    }

    /** Waits for a step of {@link #startNode()}; its failure is the start's, as when it ran inline. */
    private static void awaitStarted(CompletableFuture<Void> step) throws InterruptedException {
        try {
            step.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** {@code /healthz?verbose}: when the pod informer last heard from the API server (event, bookmark or list). */
    private java.util.List<String> informerChecks() {
        SharedIndexInformer<Pod> i = informer;
        java.time.Instant at = i == null ? null : i.lastEventTime();
        if (at == null) {
            return java.util.List.of("[+]informer pods not listed yet");
        }
        // the informer's reconnect clock is wall time (see start), so is this age
        return java.util.List.of("[+]informer pods last event " + at + " ("
                + Duration.between(at, java.time.Instant.now()).toSeconds() + "s ago)");
    }

    private ApiEventRecorder recorder;

    /** Events go through the client's recorder: asynchronous, aggregated, never blocking a pod worker. */
    private EventRecorder events(KubeClient client) {
        recorder = new ApiEventRecorder(client, "kubelet", config.nodeName(), clock);
        return recorder;
    }

    private ContainerRuntime createRuntime() {
        if ("docker".equals(config.runtime())) {
            DockerRuntime docker = new DockerRuntime(
                    config.dockerHost() != null ? config.dockerHost() : DockerRuntime.defaultHost(),
                    clock,
                    NodeContainers.labels(config.nodeName(), config.client().server()));
            docker.ping();
            return docker;
        }
        if (!"process".equals(config.runtime())) {
            throw new IllegalArgumentException("unknown runtime \"" + config.runtime() + "\": use process or docker");
        }
        return new ProcessRuntime(clock);
    }

    /** Pods with state on disk that the API server no longer has (deleted while we were down). */
    private Set<String> live() {
        Set<String> live = new HashSet<>();
        informer.lister().list().forEach(p -> live.add(p.metadata().uid()));
        return live;
    }

    /** The docker runtime's containers of this node (the process runtime's die with their kubelet's tree). */
    private java.util.Optional<NodeContainers> nodeContainers() {
        return runtime instanceof DockerRuntime docker
                ? java.util.Optional.of(new NodeContainers(
                        docker.client(), config.nodeName(), config.client().server()))
                : java.util.Optional.empty();
    }

    private void cleanOrphans(PodStateStore states, LogRegistry logs) {
        Set<String> live = live();
        for (String uid : states.knownUids()) {
            if (live.contains(uid)) {
                continue;
            }
            states.load(uid).ifPresent((PodRecord r) -> {
                for (ContainerRecord c : r.all()) {
                    if (c.running || c.starting) {
                        runtime.discard(c.containerId, c.startedAt);
                    }
                }
                logs.deletePodLogs(r.namespace, r.name, uid);
                log.info("removed leftovers of deleted pod {}/{}", r.namespace, r.name);
            });
            volumes.cleanUp(uid);
            states.delete(uid);
        }
    }

    public int port() {
        return streaming.port();
    }

    public String nodeName() {
        return config.nodeName();
    }

    /** See {@link PodManager#lastSyncedResourceVersion}; empty for a pod this kubelet has no worker for. */
    public java.util.Optional<String> lastSyncedResourceVersion(String podUid) {
        return pods == null ? java.util.Optional.empty() : pods.lastSyncedResourceVersion(podUid);
    }

    /**
     * Orderly shutdown of the node (SIGTERM): stops the pod workers, then stops and removes this node's
     * pod containers (docker runtime), then {@link #close()}. A pod whose container went this way is seen
     * at the next start as having lost it (exit 137) and follows its restart policy.
     */
    public void shutdownNode(Duration grace) {
        if (pods != null) {
            pods.shutdown();
        }
        if (informer != null) {
            informer.stop();
        }
        try {
            nodeContainers().ifPresent(c -> c.stopAndRemoveAll(grace));
        } catch (RuntimeException e) {
            log.warn("node shutdown: cannot remove the pod containers: {}", e.getMessage());
        }
        close();
    }

    /** Stops heartbeats, the watch and the endpoint; containers are left as they are (like a kubelet crash). */
    @Override
    public void close() {
        if (lensPersister != null) {
            lensPersister.close();
        }
        if (lensAnnouncer != null) {
            lensAnnouncer.close();
        }
        if (earlyRegistration != null) {
            awaitUninterruptibly(earlyRegistration);
        }
        if (node != null) {
            node.close();
        }
        if (informer != null) {
            informer.stop();
        }
        if (pods != null) {
            pods.shutdown();
        }
        if (streaming != null) {
            streaming.close();
        }
        if (server != null) {
            server.close();
        }
        if (runtime != null) {
            runtime.close();
        }
        if (volumes != null) {
            volumes.close();
        }
        if (recorder != null) {
            recorder.close();
        }
    }
}
