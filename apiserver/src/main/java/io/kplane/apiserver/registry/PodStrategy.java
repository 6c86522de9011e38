package io.kplane.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.admission.PodAdmission;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.Status;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.kubectl.Printers;
import io.kplane.apiserver.storage.Trees;
import io.vertx.core.Future;

/**
 * Pods ({@code registry/core/pod/strategy.go} plus the ServiceAccount admission plugin): Pending on
 * create; graceful deletion of a bound pod (the kubelet removes it); the pod's ServiceAccount
 * defaulted to {@code default} and required to exist.
 */
final class PodStrategy extends GenericStrategy {
    static final String DEFAULT_SERVICE_ACCOUNT = "default";
    private static final long DEFAULT_GRACE_SECONDS = 30;

    PodStrategy() {
        super(ResourceTypes.PODS, new PodAdmission(), Printers.pod());
    }

    @Override
    public void prepareStatusForCreate(ObjectNode object) {
        object.putObject("status").put("phase", "Pending");
    }

    /**
     * From the options, else the pod's terminationGracePeriodSeconds, else 30; 0 for a pod that is
     * not on a node or has finished (nothing to stop).
     */
    @Override
    public Long gracePeriodSeconds(ObjectNode object, DeleteOptions options) {
        Long requested = options.gracePeriodSeconds();
        if (requested != null && requested <= 0) {
            return 0L;
        }
        String node = Trees.text(object, "spec", "nodeName");
        String phase = Trees.text(object, "status", "phase");
        if (node == null || node.isEmpty() || "Succeeded".equals(phase) || "Failed".equals(phase)) {
            return 0L;
        }
        if (requested != null) {
            return requested;
        }
        JsonNode spec = Trees.at(object, "spec", "terminationGracePeriodSeconds");
        return spec != null && spec.canConvertToLong() ? Math.max(0, spec.asLong()) : DEFAULT_GRACE_SECONDS;
    }

    /** A bound pod in graceful deletion stays until the kubelet deletes it with grace 0. */
    @Override
    public boolean awaitsGracefulTermination(ObjectNode object) {
        JsonNode grace = Trees.at(object, "metadata", "deletionGracePeriodSeconds");
        return Trees.text(object, "spec", "nodeName") != null && grace != null && grace.asLong() > 0;
    }

    /**
     * The ServiceAccount admission plugin: an empty {@code serviceAccountName} becomes {@code default}
     * (and the deprecated {@code serviceAccount} follows it); the named account must exist, else 403
     * {@code error looking up service account ns/name: serviceaccount "name" not found}. kplane issues
     * no tokens, so no token volume is added whatever {@code automountServiceAccountToken} says.
     */
    @Override
    public Future<Void> admitWithStore(ObjectNode pod, String requestName, ObjectLookup lookup) {
        if (!(pod.get("spec") instanceof ObjectNode spec)) {
            return Future.succeededFuture();
        }
        String account = Trees.text(pod, "spec", "serviceAccountName");
        if (account == null || account.isEmpty()) {
            String deprecated = Trees.text(pod, "spec", "serviceAccount");
            account = deprecated == null || deprecated.isEmpty() ? DEFAULT_SERVICE_ACCOUNT : deprecated;
            spec.put("serviceAccountName", account);
        }
        spec.put("serviceAccount", account);
        String namespace = Trees.text(pod, "metadata", "namespace");
        String name = account;
        return lookup.find(ResourceTypes.SERVICEACCOUNTS, namespace, account).compose(sa -> {
            if (sa != null) {
                return Future.succeededFuture();
            }
            String message = "pods \"" + requestName + "\" is forbidden: error looking up service account " + namespace
                    + "/" + name + ": serviceaccount \"" + name + "\" not found";
            return Future.failedFuture(ApiError.fromStatus(
                    Status.failure(403, "Forbidden", message, Status.StatusDetails.of(requestName, "", "pods"))));
        });
    }
}
