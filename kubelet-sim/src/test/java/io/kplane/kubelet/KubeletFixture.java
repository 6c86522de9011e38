package io.kplane.kubelet;

import static org.awaitility.Awaitility.await;

import io.kplane.api.core.Pod;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.time.Clock;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;

/** A real API server (on real PostgreSQL) and one in-process kubelet-sim. */
final class KubeletFixture implements AutoCloseable {
    final TestApiServer api;
    final KubeClient client;
    final Kubelet kubelet;
    final Path root;
    final String node;

    KubeletFixture(String node, String runtime, String dockerHost) throws Exception {
        this(node, runtime, dockerHost, java.util.function.UnaryOperator.identity());
    }

    /** {@code runtimeWrapper} wraps the kubelet's runtime (e.g. a {@link FaultInjectingRuntime}). */
    KubeletFixture(
            String node,
            String runtime,
            String dockerHost,
            java.util.function.UnaryOperator<io.kplane.kubelet.runtime.ContainerRuntime> runtimeWrapper)
            throws Exception {
        this.node = node;
        this.api = TestApiServer.start();
        this.client = KubeClient.create(ClientConfig.forServer(api.url()));
        this.root = Files.createTempDirectory("kubelet-" + node);
        KubeletConfig config = KubeletConfig.defaults(ClientConfig.forServer(api.url()), node, root)
                .withRuntime(runtime, dockerHost)
                .withCrashLoop(Duration.ofMillis(300), Duration.ofSeconds(2))
                .withLeaseInterval(Duration.ofSeconds(1));
        this.kubelet = new Kubelet(config, Clock.system(), runtimeWrapper)
                .withVolumeSyncPeriod(Duration.ofMillis(500))
                .start();
    }

    Pod create(Pod pod) {
        // tests never reach for a registry: the image is local (IfNotPresent instead of the default Always)
        String image = PodLifecycleContract.image;
        pod = pod.withSpec(pod.spec()
                .withContainers(pod.spec().containersOrEmpty().stream()
                        .map(c -> c.withImage(image).withImagePullPolicy("IfNotPresent"))
                        .toList())
                .withInitContainers(
                        pod.spec().initContainers() == null
                                ? null
                                : pod.spec().initContainers().stream()
                                        .map(c -> c.withImage(image).withImagePullPolicy("IfNotPresent"))
                                        .toList()));
        return client.pods().inNamespace(pod.metadata().namespace()).create(pod);
    }

    Optional<Pod> find(String name) {
        return client.pods().inNamespace("default").find(name);
    }

    Pod awaitPod(String name, Predicate<Pod> condition) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> find(name).filter(condition).isPresent());
        return find(name).orElseThrow();
    }

    Pod awaitPhase(String name, String phase) {
        return awaitPod(name, p -> phase.equals(p.phase()));
    }

    /** GET the kubelet's own log endpoint. */
    String logs(String pod, String container, String query) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + kubelet.port() + "/containerLogs/default/"
                                                + pod + "/" + container + (query.isEmpty() ? "" : "?" + query)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return r.body();
    }

    InputStream logStream(String pod, String container, String query) throws IOException, InterruptedException {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + kubelet.port()
                                        + "/containerLogs/default/" + pod + "/" + container + "?" + query))
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream())
                .body();
    }

    static String readAll(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    /**
     * Shuts the node down as on SIGTERM: the docker runtime's containers of this node are stopped and
     * removed (they outlive a kubelet that is merely closed, and would pile up on the engine run after
     * run); a failure to reach the engine is logged, never thrown.
     */
    @Override
    public void close() {
        kubelet.shutdownNode(Duration.ZERO);
        api.close();
    }
}
