package io.kplane.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The whole kplane stack in one container, for projects that prefer an image to a local kplane
 * distribution (Testcontainers; {@code org.testcontainers:testcontainers} is an optional dependency
 * of this artifact, the project adds it). The image built from {@code deploy/Dockerfile} runs the
 * kplane launcher ({@code kplane-component launcher up}, what {@code ./kplane up} runs): embedded
 * PostgreSQL, the API server, every controller and one kubelet-sim with the process runtime, each its
 * own process inside the container; only the API server's port is published.
 *
 * <pre>{@code
 * static final KplaneContainer kplane = new KplaneContainer(); // image "kplane:latest"
 * kplane.start();
 * KubernetesClient client = kplane.kubernetesClient();         // or kplane.apiClient(), kplane.kubeconfig()
 * kplane.clock().set(Instant.parse("2026-12-01T00:59:58Z"));
 * }</pre>
 *
 * <p>Unlike {@link KplaneTest} it does not create a namespace per test: the container is the user's
 * to share or not, and {@link #kubeconfig(String)} / {@link #kubernetesClient(String)} point at the
 * namespace a test chooses.
 */
public class KplaneContainer extends GenericContainer<KplaneContainer> {
    /** The image {@code docker compose -f deploy/docker-compose.yml build} (and {@code deploy/compose-e2e.sh}) tags. */
    public static final String DEFAULT_IMAGE = "kplane:latest";

    /** The API server's port inside the container. */
    public static final int API_PORT = 6443;

    /** The launcher prints this line once every component is healthy (the launcher's {@code Stack.printUsage}). */
    private static final String READY_LINE = ".*kplane is up: API server at .*";

    /** Where the launcher keeps its state inside the image (working directory {@code /var/lib/kplane}). */
    static final String STATE_DIR = "/var/lib/kplane/.kplane";

    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(4);

    private final List<String> componentArgs = new ArrayList<>();
    private Path kubeconfigFile;
    private long startNanos;
    private Duration startDuration;

    /** The image named by the system property {@code kplane.image}, else {@value #DEFAULT_IMAGE}. */
    public KplaneContainer() {
        this(DockerImageName.parse(System.getProperty("kplane.image", DEFAULT_IMAGE)));
    }

    public KplaneContainer(String image) {
        this(DockerImageName.parse(image));
    }

    public KplaneContainer(DockerImageName image) {
        super(image);
        withExposedPorts(API_PORT);
        // no status table redrawn on a terminal: plain lines in the container's log
        withEnv("CI", "true");
        waitingFor(Wait.forLogMessage(READY_LINE, 1).withStartupTimeout(STARTUP_TIMEOUT));
    }

    /**
     * An extra argument for one component ({@code NAME=ARG}, the launcher's {@code --component-arg}),
     * e.g. {@code kubelet-sim=--crashloop-base=1s}. Before {@link #start()}.
     */
    public KplaneContainer withComponentArg(String nameEqualsArg) {
        componentArgs.add(nameEqualsArg);
        return self();
    }

    @Override
    protected void configure() {
        List<String> command = new ArrayList<>(List.of(
                "launcher",
                "up",
                "--state-dir",
                STATE_DIR,
                "--bind",
                "0.0.0.0",
                "--port",
                String.valueOf(API_PORT),
                "--nodes",
                "1"));
        componentArgs.forEach(a -> command.add("--component-arg=" + a));
        setCommand(command.toArray(String[]::new));
    }

    @Override
    protected void doStart() {
        startNanos = System.nanoTime();
        super.doStart();
    }

    @Override
    protected void containerIsStarted(com.github.dockerjava.api.command.InspectContainerResponse info) {
        super.containerIsStarted(info);
        startDuration = Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /** The API server as the test reaches it: the engine's host and the published port. */
    public String server() {
        return "http://" + getHost() + ":" + getMappedPort(API_PORT);
    }

    /** A kubeconfig (as text) for {@link #server()}, context namespace {@code default}. */
    public String kubeconfig() {
        return kubeconfig("default");
    }

    /** A kubeconfig (as text) for {@link #server()} whose context's namespace is {@code namespace}. */
    public String kubeconfig(String namespace) {
        return NamespaceKubeconfig.text(server(), namespace);
    }

    /**
     * {@link #kubeconfig()} written to a file (once per container), for {@code kubectl --kubeconfig},
     * a build tool or {@code KUBECONFIG}.
     */
    public synchronized Path kubeconfigFile() {
        if (kubeconfigFile == null) {
            try {
                Path dir = Files.createTempDirectory("kplane-container");
                kubeconfigFile = NamespaceKubeconfig.write(dir, server(), "default");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return kubeconfigFile;
    }

    /** fabric8's client with its default settings, default namespace {@code default}. The caller closes it. */
    public KubernetesClient kubernetesClient() {
        return kubernetesClient("default");
    }

    /** fabric8's client with its default settings, default namespace {@code namespace}. The caller closes it. */
    public KubernetesClient kubernetesClient(String namespace) {
        return Fabric8Clients.create(kubeconfig(namespace));
    }

    /** The official client's {@code ApiClient} ({@code io.kubernetes:client-java}), from {@link #kubeconfig()}. */
    public ApiClient apiClient() {
        return OfficialClients.create(kubeconfig());
    }

    /** The cluster clock ({@code clocks.kplane.io/cluster}): every component inside follows it. */
    public ClusterClock clock() {
        return new ClusterClock(new KubeHttp(server()));
    }

    /** From {@link #start()} to the launcher reporting every component healthy (image present locally). */
    public Duration startDuration() {
        return startDuration;
    }

    /**
     * Resident memory of every process in the container (launcher, components, PostgreSQL), in MiB:
     * the sum of their {@code VmRSS}, as {@link KplaneCluster#residentMemoryMiB()} counts the local stack.
     */
    public long residentMemoryMiB() {
        ExecResult r = exec("sh", "-c", "cat /proc/[0-9]*/status 2>/dev/null | grep '^VmRSS:'");
        long kib = r.getStdout()
                .lines()
                .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
                .sum();
        return kib / 1024;
    }

    /** The launcher's state file inside the container (each component's pid, port, log file). */
    public String stateJson() {
        return exec("cat", STATE_DIR + "/state.json").getStdout();
    }

    /** One component's log inside the container ({@code .kplane/logs/NAME.log}), e.g. {@code job-controller}. */
    public String componentLog(String component) {
        return exec("cat", STATE_DIR + "/logs/" + component + ".log").getStdout();
    }

    private ExecResult exec(String... command) {
        try {
            return execInContainer(command);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
