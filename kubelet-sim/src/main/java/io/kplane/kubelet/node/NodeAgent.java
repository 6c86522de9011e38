package io.kplane.kubelet.node;

import io.kplane.api.coordination.Lease;
import io.kplane.api.coordination.LeaseSpec;
import io.kplane.api.core.DaemonEndpoint;
import io.kplane.api.core.Node;
import io.kplane.api.core.NodeAddress;
import io.kplane.api.core.NodeBuilder;
import io.kplane.api.core.NodeCondition;
import io.kplane.api.core.NodeDaemonEndpoints;
import io.kplane.api.core.NodeStatus;
import io.kplane.api.core.NodeStatusBuilder;
import io.kplane.api.core.NodeSystemInfo;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.api.meta.OwnerReference;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.KubeClientException;
import io.kplane.client.retry.CappedDoublingBackoff;
import io.kplane.client.time.Clock;
import io.kplane.kubelet.pod.NodeFacts;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's side of being alive: registers the Node, renews the Lease {@code kube-node-lease/<node>}
 * every {@code leaseInterval}, and posts node status (Ready heartbeat) every {@code statusInterval} or
 * at once when the server's copy is not Ready (e.g. the node-lifecycle controller set it Unknown
 * while this kubelet was away).
 */
public final class NodeAgent implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NodeAgent.class);
    public static final String KUBELET_VERSION = "v1.32.0-kplane";

    private final KubeClient client;
    private final Clock clock;
    private final String nodeName;
    private final int kubeletPort;
    private final int maxPods;
    private final String runtimeVersion;
    private final Duration leaseInterval;
    private final Duration statusInterval;
    private final int leaseDurationSeconds;
    private final List<NodeAddress> addresses;
    private volatile boolean closed;
    private Instant lastStatusPost = Instant.EPOCH;
    private volatile String nodeUid;
    /** The Node as created or read by {@link #registerObject()}, whose status the next heartbeat posts. */
    private volatile Node statusPending;

    private Clock.Timer leaseTimer;
    private final CappedDoublingBackoff registrationBackoff;
    private volatile boolean readFirst;

    public NodeAgent(
            KubeClient client,
            Clock clock,
            String nodeName,
            int kubeletPort,
            int maxPods,
            String runtimeVersion,
            Duration leaseInterval,
            Duration statusInterval) {
        this(
                client,
                clock,
                nodeName,
                AdvertisedAddress.of(AdvertisedAddress.DEFAULT, nodeName),
                kubeletPort,
                maxPods,
                runtimeVersion,
                leaseInterval,
                statusInterval);
    }

    /** @param address what goes into {@code status.addresses}: how the API server reaches this kubelet */
    public NodeAgent(
            KubeClient client,
            Clock clock,
            String nodeName,
            AdvertisedAddress address,
            int kubeletPort,
            int maxPods,
            String runtimeVersion,
            Duration leaseInterval,
            Duration statusInterval) {
        this.addresses = address.nodeAddresses();
        this.client = client;
        this.clock = clock;
        this.nodeName = nodeName;
        this.kubeletPort = kubeletPort;
        this.maxPods = maxPods;
        this.runtimeVersion = runtimeVersion;
        this.leaseInterval = leaseInterval;
        this.statusInterval = statusInterval;
        this.registrationBackoff = new CappedDoublingBackoff(leaseInterval);
        // like the kubelet: the lease lasts 4 renew intervals (40 s for 10 s)
        this.leaseDurationSeconds =
                (int) Math.max(1, leaseInterval.multipliedBy(4).toSeconds());
    }

    /**
     * Registers the node and starts the heartbeat. An API server that cannot be reached yet (or answers
     * 503 while its database is away) does not stop the kubelet: as upstream's kubelet keeps retrying
     * its registration, the heartbeat registers the node on its first round that reaches the server;
     * until then it retries with a back-off from 100 ms doubling up to the heartbeat interval.
     */
    public void start() {
        heartbeat();
    }

    public void register() {
        registerObject();
        postPendingStatus();
    }

    /**
     * Creates the Node object, or reads it when it exists (a restart), without its status. Nothing here
     * needs the cluster time (the object carries labels only; its times are the status's): {@link
     * io.kplane.kubelet.Kubelet} runs it while the cluster Clock is awaited, and the first heartbeat then
     * posts the status (with the cluster clock's times) and renews the Lease. Throws what the API server
     * answered when it cannot be reached or refuses.
     */
    public void registerObject() {
        if (readFirst) {
            Optional<Node> existing = client.nodes().find(nodeName);
            if (existing.isPresent()) {
                registered(existing.get());
                log.info("node {} already registered; updating its status", nodeName);
                return;
            }
        }
        Node desired = NodeBuilder.builder()
                .metadata(ObjectMetaBuilder.builder()
                        .name(nodeName)
                        .labels(Map.of(
                                "kubernetes.io/hostname",
                                nodeName,
                                "kubernetes.io/os",
                                "linux",
                                "kubernetes.io/arch",
                                arch(),
                                "node.kplane.io/runtime",
                                runtimeVersion.split(":")[0]))
                        .build())
                .build();
        Node node;
        try {
            node = client.nodes().create(desired);
            log.info("registered node {}", nodeName);
        } catch (ApiException e) {
            if (!e.isAlreadyExists()) {
                throw e;
            }
            node = client.nodes().get(nodeName);
            log.info("node {} already registered; updating its status", nodeName);
        }
        registered(node);
    }

    private void registered(Node node) {
        statusPending = node;
        nodeUid = node.metadata().uid();
        registrationBackoff.reset();
    }

    /**
     * The Node most likely exists already (this kubelet ran before with the same root directory): the
     * registration reads it first and creates it only if absent, instead of create, 409, read. Same
     * outcome either way; on a restart (every {@code ./kplane up} after the first) it saves a round trip
     * and the error path of the 409, both cold in a starting kubelet.
     */
    public NodeAgent readFirst(boolean likelyRegistered) {
        this.readFirst = likelyRegistered;
        return this;
    }

    /**
     * Posts the status of the Node {@link #registerObject()} created or read, once; true if there was
     * one. The object read moments ago serves as the base of the update (a conflict re-reads it).
     */
    private boolean postPendingStatus() {
        Node node = statusPending;
        if (node == null) {
            return false;
        }
        statusPending = null;
        postStatus(node, clock.now());
        return true;
    }

    private void heartbeat() {
        if (closed) {
            return;
        }
        io.kplane.client.time.ActivityTracker.begin(); // a renewal after a clock step is part of the step
        try {
            if (nodeUid == null) {
                registerObject(); // not registered yet: the API server was unreachable so far
            }
            // the first round after registering posts the status of the Node it just created or read, and
            // needs no second read of it (the status was posted a moment ago, with this clock's time)
            boolean posted = postPendingStatus();
            renewLease();
            if (!posted) {
                Node node = client.nodes().get(nodeName);
                Instant now = clock.now();
                if (!node.isReady() || Duration.between(lastStatusPost, now).compareTo(statusInterval) >= 0) {
                    postStatus(node, now);
                }
            }
        } catch (ApiException e) {
            if (e.isNotFound()) {
                log.warn("node {} was deleted; registering again", nodeName);
                try {
                    register();
                } catch (KubeClientException again) {
                    log.warn("cannot register node {}: {}", nodeName, again.getMessage());
                }
            } else {
                log.warn("node heartbeat failed: {}", e.getMessage());
            }
        } catch (KubeClientException e) {
            log.warn("node heartbeat failed: {}", e.getMessage());
        } finally {
            io.kplane.client.time.ActivityTracker.end();
        }
        synchronized (this) {
            if (!closed) {
                // not registered yet: retry sooner, backing off up to the heartbeat interval
                Duration next = nodeUid == null ? registrationBackoff.next() : leaseInterval;
                leaseTimer = clock.schedule(next, this::heartbeat);
            }
        }
    }

    private void postStatus(Node node, Instant now) {
        NodeCondition oldReady = node.status() == null ? null : node.status().condition(NodeCondition.READY);
        Instant transition =
                oldReady != null && "True".equals(oldReady.status()) && oldReady.lastTransitionTime() != null
                        ? oldReady.lastTransitionTime()
                        : now;
        List<NodeCondition> conditions = new ArrayList<>();
        conditions.add(new NodeCondition(
                "MemoryPressure",
                "False",
                now,
                transition,
                "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available"));
        conditions.add(new NodeCondition(
                "DiskPressure", "False", now, transition, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"));
        conditions.add(new NodeCondition(
                "PIDPressure",
                "False",
                now,
                transition,
                "KubeletHasSufficientPID",
                "kubelet has sufficient PID available"));
        conditions.add(new NodeCondition(
                NodeCondition.READY, "True", now, transition, "KubeletReady", "kubelet is posting ready status"));
        Map<String, String> capacity = new LinkedHashMap<>();
        capacity.put("cpu", Integer.toString(Runtime.getRuntime().availableProcessors()));
        capacity.put("memory", (NodeFacts.memoryBytes() / 1024) + "Ki");
        capacity.put("pods", Integer.toString(maxPods));
        capacity.put("ephemeral-storage", "0");
        NodeStatus status = NodeStatusBuilder.builder()
                .capacity(capacity)
                .allocatable(capacity)
                .conditions(conditions)
                .addresses(addresses)
                .daemonEndpoints(new NodeDaemonEndpoints(new DaemonEndpoint(kubeletPort)))
                .nodeInfo(new NodeSystemInfo(
                        machineId(),
                        machineId(),
                        bootId(),
                        System.getProperty("os.version"),
                        osImage(),
                        runtimeVersion,
                        KUBELET_VERSION,
                        "",
                        "linux",
                        arch()))
                .build();
        Node current = node;
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                client.nodes().updateStatus(current.withStatus(status));
                lastStatusPost = now;
                if (oldReady == null || !"True".equals(oldReady.status())) {
                    log.info("node {} is Ready", nodeName);
                }
                return;
            } catch (ApiException e) {
                if (!e.isConflict()) {
                    throw e;
                }
                current = client.nodes().get(nodeName);
            }
        }
    }

    private void renewLease() {
        var leases = client.leases().inNamespace(Lease.NODE_LEASE_NAMESPACE);
        Instant now = clock.now();
        Optional<Lease> existing = leases.find(nodeName);
        if (existing.isEmpty()) {
            ObjectMeta meta = ObjectMetaBuilder.builder()
                    .name(nodeName)
                    .namespace(Lease.NODE_LEASE_NAMESPACE)
                    .ownerReferences(
                            nodeUid == null
                                    ? null
                                    : List.of(new OwnerReference("v1", "Node", nodeName, nodeUid, null, null)))
                    .build();
            leases.create(new Lease(
                    null, null, meta, new LeaseSpec(nodeName, leaseDurationSeconds, now, now, 0, null, null)));
            return;
        }
        Lease lease = existing.get();
        LeaseSpec spec = lease.spec() == null
                ? new LeaseSpec(nodeName, leaseDurationSeconds, now, now, 0, null, null)
                : lease.spec()
                        .withHolderIdentity(nodeName)
                        .withLeaseDurationSeconds(leaseDurationSeconds)
                        .withRenewTime(now);
        leases.update(lease.withSpec(spec));
    }

    /** Stops renewing (the lease then expires, as when a node dies). */
    @Override
    public synchronized void close() {
        closed = true;
        if (leaseTimer != null) {
            leaseTimer.cancel();
        }
    }

    private static String arch() {
        String a = System.getProperty("os.arch");
        return switch (a) {
            case "x86_64", "amd64" -> "amd64";
            case "aarch64" -> "arm64";
            default -> a;
        };
    }

    private static String machineId() {
        return read(Path.of("/etc/machine-id")).orElse("kplane");
    }

    private static String bootId() {
        return read(Path.of("/proc/sys/kernel/random/boot_id")).orElse("");
    }

    private static String osImage() {
        return read(Path.of("/etc/os-release"))
                .flatMap(s -> s.lines()
                        .filter(l -> l.startsWith("PRETTY_NAME="))
                        .map(l -> l.substring("PRETTY_NAME=".length()).replace("\"", ""))
                        .findFirst())
                .orElse("Linux");
    }

    private static Optional<String> read(Path p) {
        try {
            return Optional.of(Files.readString(p).strip());
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
