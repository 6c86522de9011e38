package io.kplane.apiserver.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.json.Json;
import io.kplane.api.meta.Status;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.store.ResourceKey;
import io.kplane.store.StoreException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The namespace lifecycle, as kube-apiserver's namespace registry and NamespaceLifecycle admission:
 * a DELETE marks the namespace {@code Terminating} (deletionTimestamp, phase) and keeps it while
 * {@code spec.finalizers} is not empty; the namespace controller empties the namespace and then removes
 * its {@code kubernetes} finalizer through {@code namespaces/{name}/finalize}. Creates in a namespace
 * are fenced by the store (see {@link #parentOf}): the namespace's state is checked in the statement
 * that inserts, so no create can commit after the namespace turned Terminating.
 */
public final class NamespaceLifecycle {
    /** The Status cause type upstream adds (core/v1 NamespaceTerminatingCause). */
    public static final String TERMINATING_CAUSE = "NamespaceTerminating";

    private NamespaceLifecycle() {}

    /** The namespace a create of {@code type} in {@code namespace} is fenced by, or null for cluster-scoped kinds. */
    public static ResourceKey parentOf(ResourceType type, String namespace) {
        if (!type.namespaced() || namespace == null || namespace.isEmpty()) {
            return null;
        }
        return new ResourceKey(ResourceTypes.NAMESPACES.storageName(), "", namespace);
    }

    /**
     * 403 exactly as NamespaceLifecycle admission answers a create in a terminating namespace:
     * {@code admission.NewForbidden} (name = the object's name, else its generateName, else "Unknown")
     * plus the {@code NamespaceTerminating} cause on {@code metadata.namespace}.
     */
    public static ApiError terminating(ResourceType type, String name, String namespace) {
        String shown = name == null || name.isEmpty() ? "Unknown" : name;
        String message =
                type.storageName() + " \"" + shown + "\" is forbidden: unable to create new content in namespace "
                        + namespace + " because it is being terminated";
        Status.StatusDetails details = new Status.StatusDetails(
                shown,
                type.group(),
                type.resource(),
                null,
                List.of(new Status.StatusCause(
                        TERMINATING_CAUSE, "namespace " + namespace + " is being terminated", "metadata.namespace")),
                null);
        return ApiError.fromStatus(Status.failure(403, "Forbidden", message, details));
    }

    /** The API error for a fenced create the store refused, or null if {@code t} is not such a refusal. */
    public static ApiError refusal(Throwable t, ResourceType type, String name, String namespace) {
        if (t instanceof StoreException.ParentTerminating) {
            return terminating(type, name, namespace);
        }
        if (t instanceof StoreException.ParentMissing) {
            return ApiError.namespaceNotFound(namespace);
        }
        return null;
    }

    public static boolean isTerminating(ObjectNode namespace) {
        return Trees.isBeingDeleted(namespace)
                || "Terminating".equals(namespace.path("status").path("phase").asText());
    }

    /** The first DELETE: deletionTimestamp now, phase Terminating; {@code spec.finalizers} stays. */
    static void markTerminating(ObjectNode namespace, Instant now) {
        Trees.meta(namespace).put("deletionTimestamp", Json.formatTime(now));
        ObjectNode status = namespace.get("status") instanceof ObjectNode s ? s : namespace.putObject("status");
        status.put("phase", "Terminating");
    }

    public static List<String> specFinalizers(ObjectNode namespace) {
        List<String> result = new ArrayList<>();
        for (JsonNode f : namespace.path("spec").path("finalizers")) {
            result.add(f.asText());
        }
        return result;
    }

    /** A later DELETE while the namespace controller still has work to do: 409, as kube-apiserver. */
    static ApiError stillFinalizing(String name) {
        return ApiError.conflict(
                ResourceTypes.NAMESPACES,
                name,
                "The system is ensuring all content is removed from "
                        + "this namespace.  Upon completion, this namespace will automatically be purged by the system.");
    }

    /**
     * {@code PUT namespaces/{name}/finalize}: the stored namespace with only {@code spec.finalizers}
     * taken from the request (kube-apiserver's namespaceFinalizeStrategy).
     */
    static ObjectNode withFinalizersOf(ObjectNode requested, ObjectNode current) {
        ObjectNode updated = current.deepCopy();
        ObjectNode spec = updated.get("spec") instanceof ObjectNode s ? s : updated.putObject("spec");
        JsonNode finalizers = requested.path("spec").path("finalizers");
        ArrayNode list = spec.putArray("finalizers");
        if (finalizers.isArray()) {
            list.addAll((ArrayNode) finalizers);
        }
        return updated;
    }
}
