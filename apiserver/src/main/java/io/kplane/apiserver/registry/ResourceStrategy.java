package io.kplane.apiserver.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.admission.Admission;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.DeletionPropagation;
import io.kplane.apiserver.admission.AdmittedObject;
import io.kplane.apiserver.kubectl.ResourcePrinter;
import io.kplane.store.StoredObject;
import io.vertx.core.Future;
import java.util.List;

/**
 * Everything that is particular to one resource type, in one place, as kube-apiserver's
 * {@code registry/<group>/<resource>/strategy.go}: its defaulting and validation, what create keeps of
 * the status, how it is deleted, what else a write needs from the store, and its Table columns. The
 * generic REST machinery ({@code ResourceService}) asks the strategy and never switches on a kind;
 * adding a kind is a {@code ResourceTypes} entry plus one strategy registered in
 * {@link ResourceStrategies}.
 */
public interface ResourceStrategy {

    ResourceType type();

    /** Defaulting and validation (pure, from the api module). */
    Admission admission();

    /**
     * Checks the wire form that decoding would reject in Kubernetes (e.g. base64 of a Secret's
     * {@code data}); throws a 400 {@code ApiError}. Runs before defaulting on every write.
     */
    default void checkDecodable(ObjectNode object) {}

    /**
     * The status a new object starts with ({@code PrepareForCreate}): types with a status subresource
     * usually drop what the client sent. Default: keep it.
     */
    default void prepareStatusForCreate(ObjectNode object) {}

    /**
     * What an update of the main resource keeps of the stored object besides the generic rules
     * ({@code PrepareForUpdate}): e.g. a Namespace's {@code spec.finalizers}, which only the
     * {@code finalize} subresource changes. Default: nothing more.
     */
    default void prepareForUpdate(ObjectNode updated, ObjectNode old) {}

    /** Propagation when a DELETE names none. */
    default String defaultPropagationPolicy() {
        return DeletionPropagation.BACKGROUND;
    }

    /**
     * Graceful deletion ({@code CheckGracefulDelete}): seconds to wait before the object goes, or null
     * when the type deletes at once.
     */
    default Long gracePeriodSeconds(ObjectNode object, DeleteOptions options) {
        return null;
    }

    /** True while an object whose finalizers are gone must still wait for someone (a kubelet) to remove it. */
    default boolean awaitsGracefulTermination(ObjectNode object) {
        return false;
    }

    /**
     * Checks that need other objects (admission plugins that read the store, like ServiceAccount's).
     * Runs on create after defaulting and validation and may still set fields (as mutating admission
     * does): it answers the object to store, {@code object} itself or a changed one (the typed record
     * changed, or the tree changed in place for a tree); fails with an {@code ApiError}.
     * {@code requestName} is the name the request gave: the generateName prefix when the server
     * generated the name.
     */
    default Future<AdmittedObject> admitWithStore(AdmittedObject object, String requestName, ObjectLookup lookup) {
        return Future.succeededFuture(object);
    }

    /**
     * Objects to create along with a new object (a Namespace's {@code default} ServiceAccount).
     * {@code created.object()} may parse the stored text: only ask for it when needed.
     */
    default List<Companion> companions(StoredObject created) {
        return List.of();
    }

    /** Server-side Table columns for kubectl get. */
    ResourcePrinter printer();

    /** Reads an object for {@link #admitWithStore}: null when it does not exist. */
    interface ObjectLookup {
        Future<ObjectNode> find(ResourceType type, String namespace, String name);
    }

    /** An object created with another: its type, namespace and body. */
    record Companion(ResourceType type, String namespace, ObjectNode object) {}
}
