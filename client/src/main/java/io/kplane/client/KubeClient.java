package io.kplane.client;

import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.api.coordination.Lease;
import io.kplane.api.core.Event;
import io.kplane.api.core.Namespace;
import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import io.kplane.api.meta.KubeObject;
import io.kplane.client.config.KubeConfig;
import io.kplane.client.config.KubeconfigResolver;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Entry point of the REST client: one per process is enough (it holds the HTTP connection pool).
 * {@code client.pods().inNamespace("default").list()}, {@code client.resource(type, Job.class)}.
 */
public final class KubeClient {
    private final ClientConfig config;
    private final RawClient raw;

    private KubeClient(ClientConfig config) {
        this.config = config;
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(TlsContexts.forConfig(config))
                // Run the client's internal completion steps on the thread that makes them possible (the
                // caller or the selector thread) instead of handing each to a pool thread: every call is
                // synchronous for its caller, and on two cores the hand-offs cost more than the steps.
                .executor(Runnable::run)
                .build();
        this.raw = new RawClient(config, http);
    }

    public static KubeClient create(ClientConfig config) {
        return new KubeClient(config);
    }

    public static KubeClient forServer(String server) {
        return new KubeClient(ClientConfig.forServer(server));
    }

    /** As kubectl with no flags: {@code $KUBECONFIG} (merged) or {@code ~/.kube/config}, current context. */
    public static KubeClient fromKubeConfig() {
        return new KubeClient(KubeconfigResolver.system().resolve(null, null, null));
    }

    public static KubeClient fromKubeConfig(Path path) {
        return new KubeClient(KubeConfig.load(path).toClientConfig());
    }

    public ClientConfig config() {
        return config;
    }

    public RawClient raw() {
        return raw;
    }

    public <T extends KubeObject> ResourceClient<T> resource(ResourceType type, Class<T> javaType) {
        return new ResourceClient<>(raw, type, javaType, null);
    }

    /** The client for the resource whose record is {@code javaType}, e.g. {@code resource(Job.class)}. */
    public <T extends KubeObject> ResourceClient<T> resource(Class<T> javaType) {
        ResourceType type = ResourceTypes.byJavaType(javaType)
                .orElseThrow(() -> new IllegalArgumentException("no resource is served as " + javaType.getName()));
        return resource(type, javaType);
    }

    public ResourceClient<Pod> pods() {
        return resource(ResourceTypes.PODS, Pod.class);
    }

    public ResourceClient<Job> jobs() {
        return resource(ResourceTypes.JOBS, Job.class);
    }

    public ResourceClient<CronJob> cronJobs() {
        return resource(ResourceTypes.CRONJOBS, CronJob.class);
    }

    public ResourceClient<Node> nodes() {
        return resource(ResourceTypes.NODES, Node.class);
    }

    public ResourceClient<Event> events() {
        return resource(ResourceTypes.EVENTS, Event.class);
    }

    public ResourceClient<Lease> leases() {
        return resource(ResourceTypes.LEASES, Lease.class);
    }

    public ResourceClient<Namespace> namespaces() {
        return resource(ResourceTypes.NAMESPACES, Namespace.class);
    }
}
