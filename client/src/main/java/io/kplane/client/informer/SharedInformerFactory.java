package io.kplane.client.informer;

import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.core.Pod;
import io.kplane.api.meta.KubeObject;
import io.kplane.client.KubeClient;
import io.kplane.client.ListOptions;
import io.kplane.client.ResourceClient;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hands out one {@link SharedInformer} per resource (all namespaces, or the factory's namespace), so the
 * controllers of one process share a single watch and cache per resource. Pods get the
 * {@link Indexers#NODE_NAME} index in addition to the standard ones.
 */
public final class SharedInformerFactory {
    private final KubeClient client;
    private final Clock clock;
    private final String namespace;
    private final ReflectorOptions options;
    private final Map<ResourceType, SharedIndexInformer<?>> informers = new LinkedHashMap<>();
    private io.kplane.client.lens.Lens lens = io.kplane.client.lens.Lens.NOOP;

    public synchronized io.kplane.client.lens.Lens lens() {
        return lens;
    }

    /** Informers created from now on report to {@code lens} (see {@link SharedIndexInformer#lens}). */
    public synchronized SharedInformerFactory withLens(io.kplane.client.lens.Lens lens) {
        this.lens = lens == null ? io.kplane.client.lens.Lens.NOOP : lens;
        return this;
    }

    public SharedInformerFactory(KubeClient client, Clock clock) {
        this(client, clock, null, ReflectorOptions.DEFAULT);
    }

    /** @param namespace watch only this namespace (null: all) */
    public SharedInformerFactory(KubeClient client, Clock clock, String namespace, ReflectorOptions options) {
        this.client = client;
        this.clock = clock;
        this.namespace = namespace;
        this.options = options;
    }

    @SuppressWarnings("unchecked")
    public synchronized <T extends KubeObject> SharedIndexInformer<T> informerFor(
            ResourceType type, Class<T> javaType) {
        SharedIndexInformer<?> existing = informers.get(type);
        if (existing != null) {
            return (SharedIndexInformer<T>) existing;
        }
        ResourceClient<T> resource = client.resource(type, javaType);
        if (type.namespaced() && namespace != null) {
            resource = resource.inNamespace(namespace);
        }
        Map<String, IndexFunc<T>> indexers = new HashMap<>(Indexers.<T>standard());
        if (type.equals(ResourceTypes.PODS)) {
            indexers.put(Indexers.NODE_NAME, obj -> {
                String node = ((Pod) obj).nodeName();
                return List.of(node == null ? "" : node);
            });
        }
        SharedIndexInformer<T> informer = new SharedIndexInformer<>(
                type.resource(), ListerWatcher.of(resource, ListOptions.none()), clock, options, indexers);
        if (lens.enabled()) {
            informer.lens(lens);
        }
        informers.put(type, informer);
        return informer;
    }

    public <T extends KubeObject> SharedIndexInformer<T> informerFor(Class<T> javaType) {
        ResourceType type = ResourceTypes.byJavaType(javaType)
                .orElseThrow(() -> new IllegalArgumentException("no resource is served as " + javaType.getName()));
        return informerFor(type, javaType);
    }

    /** Starts every informer created so far (starting twice is harmless). */
    public synchronized void start() {
        informers.values().forEach(SharedIndexInformer::start);
    }

    /** Waits until every informer created so far has synced; false on timeout. */
    public boolean waitForCacheSync(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<SharedIndexInformer<?>> all;
        synchronized (this) {
            all = List.copyOf(informers.values());
        }
        for (SharedIndexInformer<?> informer : all) {
            long left = deadline - System.nanoTime();
            if (!informer.waitForSync(Duration.ofNanos(Math.max(0, left)))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Per informed resource ({@code pods}, {@code batch/jobs}...), when its reflector last heard from
     * the server (null before the first list): shown on the components' {@code /healthz?verbose}.
     */
    public synchronized Map<String, java.time.Instant> lastEventTimes() {
        Map<String, java.time.Instant> out = new LinkedHashMap<>();
        informers.forEach((type, informer) -> out.put(
                type.group().isEmpty() ? type.storageName() : type.group() + "/" + type.storageName(),
                informer.lastEventTime()));
        return out;
    }

    public synchronized void shutdown() {
        informers.values().forEach(SharedIndexInformer::stop);
    }
}
