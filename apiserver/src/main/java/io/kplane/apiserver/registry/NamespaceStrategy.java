package io.kplane.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.admission.NamespaceAdmission;
import io.kplane.apiserver.kubectl.Printers;
import io.kplane.store.StoredObject;
import java.util.List;

/**
 * Namespaces: phase Active on create, and the namespace's {@code default} ServiceAccount created with
 * it. Kubernetes leaves that account to the serviceaccount controller, so a pod created right after
 * its namespace can race it and be refused; creating it with the namespace, in the API server, closes
 * that window and works with no controller running (tests that start only the API server).
 */
public final class NamespaceStrategy extends GenericStrategy {
    NamespaceStrategy() {
        super(ResourceTypes.NAMESPACES, new NamespaceAdmission(), Printers.namespace());
    }

    @Override
    public void prepareStatusForCreate(ObjectNode object) {
        object.putObject("status").put("phase", "Active");
    }

    /**
     * kube-apiserver's namespaceStrategy.PrepareForUpdate: a plain {@code PUT/PATCH namespaces/NAME}
     * keeps the stored {@code spec.finalizers} (only {@code PUT namespaces/NAME/finalize} changes them,
     * so a client cannot drop {@code kubernetes} and skip the namespace controller's cascade). The
     * status is kept by the generic status-subresource rule.
     */
    @Override
    public void prepareForUpdate(ObjectNode updated, ObjectNode old) {
        JsonNode kept = old.path("spec").get("finalizers");
        JsonNode spec = updated.get("spec");
        if (kept == null) {
            if (spec instanceof ObjectNode s) {
                s.remove("finalizers");
            }
            return;
        }
        ObjectNode target = spec instanceof ObjectNode s ? s : updated.putObject("spec");
        target.set("finalizers", kept.deepCopy());
    }

    /**
     * A Terminating namespace stays while {@code spec.finalizers} is not empty (kube-apiserver's
     * ShouldDeleteNamespaceDuringUpdate): an update that leaves both finalizer lists empty removes it,
     * so the namespace controller's {@code finalize} ends the deletion.
     */
    @Override
    public boolean awaitsGracefulTermination(ObjectNode namespace) {
        return namespace.path("spec").path("finalizers").size() > 0;
    }

    @Override
    public List<Companion> companions(StoredObject namespace) {
        return List.of(defaultServiceAccount(namespace.key().name()));
    }

    /** The {@code default} ServiceAccount of {@code namespace}, as the serviceaccount controller makes it. */
    public static Companion defaultServiceAccount(String namespace) {
        ObjectNode sa = JsonNodeFactory.instance.objectNode();
        sa.put("apiVersion", "v1").put("kind", "ServiceAccount");
        sa.putObject("metadata")
                .put("name", PodStrategy.DEFAULT_SERVICE_ACCOUNT)
                .put("namespace", namespace);
        return new Companion(ResourceTypes.SERVICEACCOUNTS, namespace, sa);
    }
}
