package io.kplane.kubelet.runtime;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pod containers one node of one cluster has in a Docker engine, found by their labels
 * ({@code io.kplane.node}, {@code io.kplane.server}: several kubelets, even of several clusters, may
 * share an engine). The engine keeps them beyond the kubelet's life, so:
 * <ul>
 *   <li>an orderly shutdown of the node (SIGTERM, e.g. {@code docker compose down}) stops and removes
 *       all of them, as a machine shutting down takes its containers with it;</li>
 *   <li>a starting kubelet removes those whose pod no longer exists (deleted, or its cluster's data
 *       wiped, while the kubelet was down); the others it re-attaches to, or, if they are gone, records
 *       the container as lost and lets the pod's restart policy decide.</li>
 * </ul>
 */
public final class NodeContainers {
    private static final Logger log = LoggerFactory.getLogger(NodeContainers.class);
    public static final String LABEL_NODE = "io.kplane.node";
    public static final String LABEL_SERVER = "io.kplane.server";

    private final DockerClient docker;
    private final Map<String, String> labels;

    public NodeContainers(DockerClient docker, String nodeName, String serverUrl) {
        this.docker = docker;
        this.labels = labels(nodeName, serverUrl);
    }

    /** The labels every container of this node carries. */
    public static Map<String, String> labels(String nodeName, String serverUrl) {
        return Map.of(LABEL_NODE, nodeName, LABEL_SERVER, serverUrl);
    }

    public List<Container> list() {
        return docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(labels)
                .exec();
    }

    /** Removes the containers whose pod is not one of {@code livePodUids}; returns how many. */
    public int removeOrphans(Set<String> livePodUids) {
        int removed = 0;
        for (Container c : list()) {
            String uid = c.getLabels() == null ? null : c.getLabels().get(DockerRuntime.LABEL_POD_UID);
            if (uid != null && !livePodUids.contains(uid)) {
                log.info("removing container {} of pod {} that no longer exists", shortId(c), podOf(c));
                remove(c.getId());
                removed++;
            }
        }
        return removed;
    }

    /**
     * Stops every container of this node (SIGTERM, then SIGKILL after {@code grace}, all at once) and
     * removes them; returns how many.
     */
    public int stopAndRemoveAll(Duration grace) {
        List<Container> all = list();
        List<Thread> stops = all.stream()
                .map(c -> new Thread(
                        () -> {
                            try {
                                docker.stopContainerCmd(c.getId())
                                        .withTimeout((int) Math.max(0, grace.toSeconds()))
                                        .exec();
                            } catch (DockerException e) {
                                // already stopped, or gone: removal below settles it
                            }
                            remove(c.getId());
                        },
                        "stop-" + shortId(c)))
                .toList();
        stops.forEach(Thread::start);
        for (Thread t : stops) {
            try {
                t.join(grace.plusSeconds(10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (!all.isEmpty()) {
            log.info("node shutdown: stopped and removed {} pod container(s)", all.size());
        }
        return all.size();
    }

    private void remove(String id) {
        try {
            docker.removeContainerCmd(id).withForce(true).exec();
        } catch (NotFoundException e) {
            // already gone
        } catch (DockerException e) {
            log.warn("cannot remove container {}: {}", id.substring(0, Math.min(12, id.length())), e.getMessage());
        }
    }

    private static String shortId(Container c) {
        return c.getId().substring(0, Math.min(12, c.getId().length()));
    }

    private static String podOf(Container c) {
        Map<String, String> l = c.getLabels() == null ? Map.of() : c.getLabels();
        return l.get(DockerRuntime.LABEL_POD_NAMESPACE) + "/" + l.get(DockerRuntime.LABEL_POD_NAME);
    }
}
