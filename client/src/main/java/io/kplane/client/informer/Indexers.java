package io.kplane.client.informer;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.OwnerReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The standard index names and functions. */
public final class Indexers {
    /** Objects by {@code metadata.namespace}. */
    public static final String NAMESPACE = "namespace";
    /** Objects by each label, as {@code key=value}. */
    public static final String LABEL = "label";
    /** Objects by the UID of each owner reference. */
    public static final String OWNER_UID = "ownerUid";
    /**
     * Objects by their controller reference, as {@code namespace/Kind/name} ({@link #controllerKey}):
     * what a controller that matches dependents by owner name (the CronJob controller) looks up.
     */
    public static final String CONTROLLER = "controller";
    /** Pods by {@code spec.nodeName} (unscheduled pods under the empty string). */
    public static final String NODE_NAME = "spec.nodeName";

    private Indexers() {}

    public static <T extends KubeObject> IndexFunc<T> byNamespace() {
        return obj -> obj.namespace() == null ? List.of("") : List.of(obj.namespace());
    }

    public static <T extends KubeObject> IndexFunc<T> byLabel() {
        return obj -> {
            if (obj.metadata() == null) {
                return List.of();
            }
            Map<String, String> labels = obj.metadata().labelsOrEmpty();
            List<String> values = new ArrayList<>(labels.size());
            labels.forEach((k, v) -> values.add(k + "=" + v));
            return values;
        };
    }

    public static <T extends KubeObject> IndexFunc<T> byOwnerUid() {
        return obj -> {
            if (obj.metadata() == null) {
                return List.of();
            }
            List<OwnerReference> refs = obj.metadata().ownerReferencesOrEmpty();
            List<String> values = new ArrayList<>(refs.size());
            for (OwnerReference ref : refs) {
                if (ref.uid() != null) {
                    values.add(ref.uid());
                }
            }
            return values;
        };
    }

    public static <T extends KubeObject> IndexFunc<T> byController() {
        return obj -> {
            OwnerReference ref = obj.metadata() == null ? null : obj.metadata().controllerRef();
            return ref == null ? List.of() : List.of(controllerKey(obj.namespace(), ref.kind(), ref.name()));
        };
    }

    /** The {@link #CONTROLLER} index value of objects controlled by the named owner. */
    public static String controllerKey(String namespace, String kind, String name) {
        return (namespace == null ? "" : namespace) + "/" + kind + "/" + name;
    }

    /** An index on one string field, e.g. {@code field(pod -> pod.spec().nodeName())}; null indexes as "". */
    public static <T> IndexFunc<T> field(Function<T, String> getter) {
        return obj -> {
            String value = getter.apply(obj);
            return List.of(value == null ? "" : value);
        };
    }

    /** namespace, label, owner-UID and controller indexes: what every informer gets. */
    public static <T extends KubeObject> Map<String, IndexFunc<T>> standard() {
        return Map.of(NAMESPACE, byNamespace(), LABEL, byLabel(), OWNER_UID, byOwnerUid(), CONTROLLER, byController());
    }

    static Collection<String> safe(Collection<String> values) {
        return values == null ? List.of() : values;
    }
}
