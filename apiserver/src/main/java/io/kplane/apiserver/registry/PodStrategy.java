package io.kplane.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.admission.PodAdmission;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpec;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.Status;
import io.kplane.apiserver.admission.AdmittedObject;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.kubectl.Printers;
import io.kplane.apiserver.storage.Trees;
import io.vertx.core.Future;

/**
 * Pods ({@code registry/core/pod/strategy.go} plus the ServiceAccount admission plugin): Pending on
 * create; graceful deletion of a bound pod (the kubelet removes it); the pod's ServiceAccount
 * defaulted to {@code default} and required to exist (set on the typed record after the standard
 * rules, so its two fields sit where Kubernetes' PodSpec has them).
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
    public Future<AdmittedObject> admitWithStore(AdmittedObject admitted, String requestName, ObjectLookup lookup) {
        String account;
        String namespace;
        AdmittedObject result;
        if (admitted.typedOrNull() instanceof Pod pod) {
            PodSpec spec =
                    pod.spec() != null ? pod.spec() : PodSpecBuilder.builder().build();
            account = serviceAccount(spec.serviceAccountName(), spec.serviceAccount());
            result = AdmittedObject.typed(
                    pod.withSpec(spec.withServiceAccountName(account).withServiceAccount(account)));
            namespace = pod.namespace();
        } else {
            ObjectNode pod = admitted.tree();
            if (!(pod.get("spec") instanceof ObjectNode spec)) {
                return Future.succeededFuture(admitted);
            }
            account = serviceAccount(
                    Trees.text(pod, "spec", "serviceAccountName"), Trees.text(pod, "spec", "serviceAccount"));
            spec.put("serviceAccountName", account);
            spec.put("serviceAccount", account);
            result = admitted;
            namespace = Trees.text(pod, "metadata", "namespace");
        }
        String name = account;
        return lookup.find(ResourceTypes.SERVICEACCOUNTS, namespace, account).compose(sa -> {
            if (sa != null) {
                return Future.succeededFuture(result);
            }
            String message = "pods \"" + requestName + "\" is forbidden: error looking up service account " + namespace
                    + "/" + name + ": serviceaccount \"" + name + "\" not found";
            return Future.failedFuture(ApiError.fromStatus(
                    Status.failure(403, "Forbidden", message, Status.StatusDetails.of(requestName, "", "pods"))));
        });
    }

    /** {@code serviceAccountName}, else the deprecated {@code serviceAccount}, else {@code default}. */
    private static String serviceAccount(String accountName, String deprecated) {
        if (accountName != null && !accountName.isEmpty()) {
            return accountName;
        }
        return deprecated == null || deprecated.isEmpty() ? DEFAULT_SERVICE_ACCOUNT : deprecated;
    }
}
