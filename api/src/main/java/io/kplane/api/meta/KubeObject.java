package io.kplane.api.meta;

/**
 * Every top-level API object: Pod, Job, CronJob, Node, Lease, Event, Namespace.
 * Implementations are immutable records; {@code withMetadata} returns a copy.
 */
public interface KubeObject {
    String apiVersion();

    String kind();

    ObjectMeta metadata();

    KubeObject withMetadata(ObjectMeta metadata);

    default String name() {
        return metadata() == null ? null : metadata().name();
    }

    default String namespace() {
        return metadata() == null ? null : metadata().namespace();
    }

    default String uid() {
        return metadata() == null ? null : metadata().uid();
    }

    /** The cache key client-go uses: {@code namespace/name}, or {@code name} for cluster-scoped objects. */
    default String key() {
        return ObjectKeys.of(namespace(), name());
    }
}
