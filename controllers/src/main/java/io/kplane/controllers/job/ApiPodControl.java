package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.core.Pod;
import io.kplane.api.json.Json;
import io.kplane.api.meta.OwnerReference;
import io.kplane.api.patch.PatchType;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import java.util.List;
import java.util.Map;

/** {@link PodControl} over the API server. Finalizer and owner edits are strategic-merge patches, so they never clobber other fields. */
final class ApiPodControl implements PodControl {
    private static final String REMOVE_FINALIZER_PATCH =
            "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":[\"" + Job.TRACKING_FINALIZER + "\"]}}";

    private final KubeClient client;

    ApiPodControl(KubeClient client) {
        this.client = client;
    }

    @Override
    public Pod create(Pod pod) {
        return client.pods().inNamespace(pod.metadata().namespace()).create(pod);
    }

    @Override
    public boolean delete(String namespace, String name) {
        try {
            client.pods().inNamespace(namespace).delete(name);
            return true;
        } catch (ApiException e) {
            if (e.isNotFound()) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public boolean removeTrackingFinalizer(Pod pod) {
        try {
            client.pods()
                    .inNamespace(pod.metadata().namespace())
                    .patch(pod.metadata().name(), PatchType.STRATEGIC_MERGE, REMOVE_FINALIZER_PATCH);
            return true;
        } catch (ApiException e) {
            if (e.isNotFound()) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public void adopt(Pod pod, OwnerReference controllerRef) throws Exception {
        Map<String, Object> patch = Map.of(
                "metadata",
                Map.of(
                        "ownerReferences", List.of(controllerRef),
                        "finalizers", List.of(Job.TRACKING_FINALIZER)));
        client.pods()
                .inNamespace(pod.metadata().namespace())
                .patch(
                        pod.metadata().name(),
                        PatchType.STRATEGIC_MERGE,
                        Json.mapper().writeValueAsString(patch));
    }

    @Override
    public void release(Pod pod, String ownerUid) throws Exception {
        Map<String, Object> patch =
                Map.of("metadata", Map.of("ownerReferences", List.of(Map.of("$patch", "delete", "uid", ownerUid))));
        try {
            client.pods()
                    .inNamespace(pod.metadata().namespace())
                    .patch(
                            pod.metadata().name(),
                            PatchType.STRATEGIC_MERGE,
                            Json.mapper().writeValueAsString(patch));
        } catch (ApiException e) {
            if (!e.isNotFound()) {
                throw e;
            }
        }
    }
}
