package io.kplane.kubelet.pod;

import io.kplane.api.core.Pod;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodStatus;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes pod status through the {@code status} subresource. On a conflict it re-reads the pod and
 * merges again, keeping conditions other components own (PodScheduled, DisruptionTarget) as they are
 * on the server, so the kubelet never erases what the node-lifecycle controller wrote.
 */
public final class ApiPodStatusWriter implements PodStatusWriter {
    private static final Logger log = LoggerFactory.getLogger(ApiPodStatusWriter.class);
    private static final int ATTEMPTS = 5;

    private final KubeClient client;

    public ApiPodStatusWriter(KubeClient client) {
        this.client = client;
    }

    @Override
    public Pod writeStatus(Pod pod, PodStatus status) {
        var pods = client.pods().inNamespace(pod.metadata().namespace());
        Pod current = pod;
        for (int attempt = 1; ; attempt++) {
            try {
                Pod written = pods.updateStatus(current.withStatus(merge(current.status(), status)));
                log.debug(
                        "pod {}/{} status {}",
                        pod.metadata().namespace(),
                        pod.metadata().name(),
                        status.phase());
                return written;
            } catch (ApiException e) {
                if (e.isNotFound()) {
                    return null;
                }
                if (!e.isConflict() || attempt == ATTEMPTS) {
                    throw e;
                }
            }
            var fresh = pods.find(pod.metadata().name());
            if (fresh.isEmpty()
                    || !pod.metadata().uid().equals(fresh.get().metadata().uid())) {
                return null;
            }
            current = fresh.get();
        }
    }

    /** Our status, with the server's copy of every condition the kubelet does not own. */
    static PodStatus merge(PodStatus server, PodStatus ours) {
        List<PodCondition> conditions = new ArrayList<>();
        if (server != null) {
            server.conditionsOrEmpty().stream()
                    .filter(c -> !StatusComputer.KUBELET_CONDITIONS.contains(c.type()))
                    .forEach(conditions::add);
        }
        ours.conditionsOrEmpty().stream()
                .filter(c -> StatusComputer.KUBELET_CONDITIONS.contains(c.type())
                        || conditions.stream().noneMatch(s -> s.type().equals(c.type())))
                .forEach(conditions::add);
        return ours.withConditions(conditions);
    }

    @Override
    public void finishDeletion(Pod pod) {
        try {
            client.pods()
                    .inNamespace(pod.metadata().namespace())
                    .delete(
                            pod.metadata().name(),
                            new DeleteOptions(
                                    null,
                                    null,
                                    0L,
                                    new DeleteOptions.Preconditions(
                                            pod.metadata().uid(), null),
                                    null,
                                    null,
                                    null));
        } catch (ApiException e) {
            if (!e.isNotFound() && !e.isConflict()) {
                throw e;
            }
        }
    }
}
