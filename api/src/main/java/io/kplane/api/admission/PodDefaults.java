package io.kplane.api.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.core.Container;
import io.kplane.api.core.EnvVar;
import io.kplane.api.core.ObjectFieldSelector;
import io.kplane.api.core.PodSpec;
import io.kplane.api.core.PodTemplateSpec;
import java.util.List;

/** Kubernetes' scheme defaults for pod specs and containers ({@code SetDefaults_PodSpec}, {@code SetDefaults_Container}). */
public final class PodDefaults {
    public static final String DEFAULT_SCHEDULER = "default-scheduler";
    public static final long DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
    public static final String TERMINATION_MESSAGE_PATH = "/dev/termination-log";

    private PodDefaults() {}

    public static PodTemplateSpec template(PodTemplateSpec template) {
        if (template == null) {
            return new PodTemplateSpec(null, spec(null));
        }
        return template.withSpec(spec(template.spec()));
    }

    public static PodSpec spec(PodSpec spec) {
        PodSpec s = spec == null ? io.kplane.api.core.PodSpecBuilder.builder().build() : spec;
        return s.withRestartPolicy(orDefault(s.restartPolicy(), PodSpec.RESTART_ALWAYS))
                .withTerminationGracePeriodSeconds(
                        s.terminationGracePeriodSeconds() == null
                                ? DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS
                                : s.terminationGracePeriodSeconds())
                .withDnsPolicy(orDefault(s.dnsPolicy(), "ClusterFirst"))
                .withSchedulerName(orDefault(s.schedulerName(), DEFAULT_SCHEDULER))
                .withSecurityContext(
                        s.securityContext() == null ? JsonNodeFactory.instance.objectNode() : s.securityContext())
                .withContainers(containers(s.containers()))
                .withInitContainers(containers(s.initContainers()));
    }

    private static List<Container> containers(List<Container> containers) {
        return containers == null
                ? null
                : containers.stream().map(PodDefaults::container).toList();
    }

    public static Container container(Container c) {
        return c.withImagePullPolicy(
                        c.imagePullPolicy() == null || c.imagePullPolicy().isEmpty()
                                ? defaultPullPolicy(c.image())
                                : c.imagePullPolicy())
                .withTerminationMessagePath(orDefault(c.terminationMessagePath(), TERMINATION_MESSAGE_PATH))
                .withTerminationMessagePolicy(orDefault(c.terminationMessagePolicy(), "File"))
                .withResources(c.resources() == null ? JsonNodeFactory.instance.objectNode() : c.resources())
                .withPorts(
                        c.ports() == null
                                ? null
                                : c.ports().stream()
                                        .map(p -> p.protocol() == null
                                                        || p.protocol().isEmpty()
                                                ? p.withProtocol("TCP")
                                                : p)
                                        .toList())
                .withEnv(
                        c.env() == null
                                ? null
                                : c.env().stream().map(PodDefaults::env).toList());
    }

    private static EnvVar env(EnvVar e) {
        if (e.valueFrom() == null || e.valueFrom().fieldRef() == null) {
            return e;
        }
        ObjectFieldSelector ref = e.valueFrom().fieldRef();
        if (ref.apiVersion() != null && !ref.apiVersion().isEmpty()) {
            return e;
        }
        return e.withValueFrom(e.valueFrom().withFieldRef(ref.withApiVersion("v1")));
    }

    /** Always for {@code :latest} or untagged images, IfNotPresent otherwise (also for digests). */
    public static String defaultPullPolicy(String image) {
        if (image == null) {
            return Container.PULL_IF_NOT_PRESENT;
        }
        String ref = image;
        boolean digest = ref.contains("@");
        if (digest) {
            ref = ref.substring(0, ref.indexOf('@'));
        }
        int slash = ref.lastIndexOf('/');
        int colon = ref.lastIndexOf(':');
        String tag = colon > slash ? ref.substring(colon + 1) : (digest ? "" : "latest");
        return tag.equals("latest") ? Container.PULL_ALWAYS : Container.PULL_IF_NOT_PRESENT;
    }

    /** Pod-only defaults ({@code SetDefaults_Pod}): service links, and requests copied from limits. */
    static PodSpec podOnly(PodSpec spec) {
        PodSpec s = spec.withEnableServiceLinks(
                spec.enableServiceLinks() == null ? Boolean.TRUE : spec.enableServiceLinks());
        return s.withContainers(requestsFromLimits(s.containers()))
                .withInitContainers(requestsFromLimits(s.initContainers()));
    }

    private static List<Container> requestsFromLimits(List<Container> containers) {
        if (containers == null) {
            return null;
        }
        return containers.stream()
                .map(c -> {
                    JsonNode limits =
                            c.resources() == null ? null : c.resources().get("limits");
                    if (limits == null || !limits.isObject() || limits.isEmpty()) {
                        return c;
                    }
                    ObjectNode resources = ((ObjectNode) c.resources()).deepCopy();
                    ObjectNode requests = resources.has("requests")
                                    && resources.get("requests").isObject()
                            ? (ObjectNode) resources.get("requests")
                            : resources.putObject("requests");
                    limits.fields().forEachRemaining(e -> {
                        if (!requests.has(e.getKey())) {
                            requests.set(e.getKey(), e.getValue());
                        }
                    });
                    return c.withResources(resources);
                })
                .toList();
    }

    /** Kubernetes' QoS class: BestEffort without any request or limit, Guaranteed when limits equal requests for cpu and memory everywhere. */
    static String qosClass(PodSpec spec) {
        boolean any = false;
        boolean guaranteed = true;
        for (Container c : spec.containersOrEmpty()) {
            JsonNode requests = c.resources() == null ? null : c.resources().get("requests");
            JsonNode limits = c.resources() == null ? null : c.resources().get("limits");
            if ((requests != null && !requests.isEmpty()) || (limits != null && !limits.isEmpty())) {
                any = true;
            }
            for (String res : List.of("cpu", "memory")) {
                JsonNode l = limits == null ? null : limits.get(res);
                JsonNode r = requests == null ? null : requests.get(res);
                if (l == null || (r != null && !r.asText().equals(l.asText()))) {
                    guaranteed = false;
                }
            }
        }
        if (!any) {
            return "BestEffort";
        }
        return guaranteed ? "Guaranteed" : "Burstable";
    }

    private static String orDefault(String value, String def) {
        return value == null || value.isEmpty() ? def : value;
    }
}
