package io.kplane.kubelet;

import io.kplane.api.process.CrashOnError;
import io.kplane.api.util.GoDuration;
import io.kplane.client.ClientConfig;
import io.kplane.client.config.KubeconfigResolver;
import io.kplane.client.time.ClusterClockFollower;
import io.kplane.kubelet.node.AdvertisedAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code java -jar kplane-kubelet-sim.jar --server http://127.0.0.1:6443 --node-name node-1 ...} */
@Command(
        name = "kubelet-sim",
        mixinStandardHelpOptions = true,
        description = "Simulated kubelet: registers a node and runs the pods bound to it.")
public final class KubeletMain implements Callable<Integer> {
    /** How long the start waits for the cluster Clock before it goes on with real time. */
    private static final Duration CLOCK_SYNC_TIMEOUT = Duration.ofSeconds(60);

    @Option(names = "--server", description = "API server URL (overrides the kubeconfig's)")
    String server;

    @Option(names = "--kubeconfig", description = "kubeconfig file (default: $KUBECONFIG, ~/.kube/config)")
    Path kubeconfig;

    @Option(names = "--token", description = "bearer token for the API server")
    String token;

    @Option(names = "--node-name", description = "name of the Node (default: host name)")
    String nodeName;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "address of the kubelet endpoint")
    String bind;

    @Option(
            names = "--node-address",
            defaultValue = AdvertisedAddress.DEFAULT,
            description = "address the API "
                    + "server reaches this kubelet at, advertised on the Node: an IP (InternalIP) or a host name (Hostname, "
                    + "resolved once to the InternalIP), e.g. the compose service name (default ${DEFAULT-VALUE})")
    String nodeAddress;

    @Option(names = "--port", defaultValue = "10250", description = "port of the kubelet endpoint (0: any free port)")
    int port;

    @Option(names = "--root-dir", description = "state and logs (default: ./.kplane/kubelet/<node>)")
    Path rootDir;

    @Option(names = "--runtime", defaultValue = "process", description = "process or docker")
    String runtime;

    @Option(names = "--docker-host", description = "Docker Engine API address (default: $DOCKER_HOST)")
    String dockerHost;

    @Option(
            names = "--shutdown-grace-period",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "on SIGTERM, how long pod containers get to stop before they are killed and removed "
                    + "(docker runtime; default ${DEFAULT-VALUE})")
    Duration shutdownGrace;

    @Option(names = "--max-pods", defaultValue = "110")
    int maxPods;

    @Option(
            names = "--lease-interval",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "how often the node Lease is renewed (lease duration: 4x this)")
    Duration leaseInterval;

    @Option(names = "--node-status-interval", defaultValue = "1m", converter = DurationConverter.class)
    Duration nodeStatusInterval;

    @Option(names = "--crashloop-base", defaultValue = "10s", converter = DurationConverter.class)
    Duration crashLoopBase;

    @Option(names = "--crashloop-max", defaultValue = "5m", converter = DurationConverter.class)
    Duration crashLoopMax;

    @Option(names = "--container-log-max-size", defaultValue = "10485760", description = "bytes per log file")
    long logMaxBytes;

    @Option(names = "--container-log-max-files", defaultValue = "5")
    int logMaxFiles;

    @Option(
            names = "--token-auth-file",
            description =
                    "CSV token,user,uid[,groups] (like kube-apiserver's): tokens " + "accepted by the kubelet endpoint")
    Path tokenAuthFile;

    @Option(names = "--endpoint-token", description = "a token accepted by the kubelet endpoint (repeatable)")
    List<String> endpointTokens;

    @Option(
            names = "--volume-sync-period",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "how often configMap/secret/downwardAPI/projected volume files are refreshed")
    Duration volumeSyncPeriod;

    public static void main(String[] args) {
        CrashOnError.install("kubelet-sim");
        System.exit(new CommandLine(new KubeletMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        ClientConfig client = clientConfig();
        String node = nodeName != null
                ? nodeName
                : java.net.InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
        Path root = rootDir != null ? rootDir : Path.of(".kplane", "kubelet", node);
        try {
            AdvertisedAddress.of(nodeAddress, node);
        } catch (IllegalArgumentException e) {
            System.err.println("kubelet-sim: " + e.getMessage());
            return 2;
        }
        Set<String> tokens = new HashSet<>();
        if (endpointTokens != null) {
            tokens.addAll(endpointTokens);
        }
        if (tokenAuthFile != null) {
            for (String line : Files.readAllLines(tokenAuthFile)) {
                String t = line.strip();
                if (!t.isEmpty() && !t.startsWith("#")) {
                    tokens.add(t.split(",", 2)[0].strip());
                }
            }
        }
        KubeletConfig config = new KubeletConfig(
                client,
                node,
                bind,
                port,
                root.toAbsolutePath(),
                runtime,
                dockerHost,
                maxPods,
                leaseInterval,
                nodeStatusInterval,
                crashLoopBase,
                crashLoopMax,
                logMaxBytes,
                logMaxFiles,
                Set.copyOf(tokens),
                nodeAddress);
        // the kubelet's times (lease renewals, heartbeats, container timestamps, grace periods,
        // CrashLoopBackOff) follow the cluster Clock (docs/clock.md). The runtime and the endpoint need
        // neither the API server nor the cluster time: they start while the Clock is awaited (beside an
        // API server that is itself starting, that wait is most of this process's first seconds), and
        // the Node's object is created (or read) meanwhile too; its status, the pod workers and readiness
        // only once the cluster time is known.
        ClusterClockFollower follower =
                ClusterClockFollower.startInBackground(io.kplane.client.KubeClient.create(client), "kubelet-" + node);
        Kubelet kubelet = new Kubelet(config, follower.clock())
                .withVolumeSyncPeriod(volumeSyncPeriod)
                .startLocal()
                .startRegistration(); // the Node object carries no time: it need not follow the Clock's list
        follower.awaitFirstState(CLOCK_SYNC_TIMEOUT);
        kubelet.startNode();
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            kubelet.shutdownNode(shutdownGrace);
                            follower.close();
                            stop.countDown();
                        },
                        "shutdown"));
        stop.await();
        return 0;
    }

    private ClientConfig clientConfig() {
        return KubeconfigResolver.system().resolve(server, token, kubeconfig == null ? null : kubeconfig.toString());
    }

    /** Picocli adapter for {@link GoDuration}: flags take Go durations as Kubernetes' do ({@code 1m30s}). */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String v) {
            try {
                return GoDuration.parseNonNegative(v);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
