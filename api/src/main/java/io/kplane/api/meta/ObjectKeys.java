package io.kplane.api.meta;

/**
 * The cache and work-queue key of an object, as client-go's {@code cache.MetaNamespaceKeyFunc} and
 * {@code cache.SplitMetaNamespaceKey} make and read it: {@code namespace/name}, or just {@code name}
 * for a cluster-scoped object (Node, Namespace, ...). Every key in kplane is built and split here.
 */
public final class ObjectKeys {
    private ObjectKeys() {}

    /** A key's two parts; {@code namespace} is {@code ""} for a cluster-scoped key. */
    public record Key(String namespace, String name) {}

    /** {@code namespace/name}, or {@code name} when {@code namespace} is null or empty. */
    public static String of(String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }

    /**
     * Splits a key made by {@link #of}: {@code ns/name} or a cluster-scoped {@code name}.
     *
     * @throws IllegalArgumentException for more than one {@code /} (client-go: "unexpected key format")
     */
    public static Key split(String key) {
        int slash = key.indexOf('/');
        if (slash < 0) {
            return new Key("", key);
        }
        if (key.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException("unexpected key format: \"" + key + "\"");
        }
        return new Key(key.substring(0, slash), key.substring(slash + 1));
    }
}
