package io.kplane.kubelet.pod;

import io.kplane.api.core.ConfigMapKeySelector;
import io.kplane.api.core.Container;
import io.kplane.api.core.EnvVar;
import io.kplane.api.core.Pod;
import io.kplane.api.core.SecretKeySelector;
import io.kplane.kubelet.config.ConfigEnv;
import io.kplane.kubelet.config.ConfigObjects;
import io.kplane.kubelet.config.PodViews;
import io.kplane.kubelet.runtime.ContainerStartException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container's environment as the kubelet builds it: {@code envFrom} first (see {@link ConfigEnv}), then
 * {@code env} values in order, each expanded against the
 * variables defined before it; {@code valueFrom.fieldRef} from the downward API; then command and
 * args expanded against the whole environment.
 */
public final class EnvResolver {
    private static final Pattern MAP_KEY = Pattern.compile("metadata\\.(annotations|labels)\\['(.*)'\\]");

    private final String hostIp;
    private final String podIp;
    private final ConfigObjects objects;
    private final ConfigEnv.Warnings warnings;

    public EnvResolver(String hostIp, String podIp) {
        this(hostIp, podIp, null, (reason, message) -> {});
    }

    /** With {@code objects} null, ConfigMap and Secret references fail as if the objects did not exist. */
    public EnvResolver(String hostIp, String podIp, ConfigObjects objects, ConfigEnv.Warnings warnings) {
        this.hostIp = hostIp;
        this.podIp = podIp;
        this.objects = objects;
        this.warnings = warnings;
    }

    public Map<String, String> environment(Pod pod, Container container) throws ContainerStartException {
        Map<String, String> env = new LinkedHashMap<>();
        ConfigEnv config =
                objects == null ? null : new ConfigEnv(objects, pod.metadata().namespace(), warnings);
        if (config != null) {
            // envFrom first; env entries override its keys (makeEnvironmentVariables' order)
            env.putAll(config.envFrom(PodViews.envFrom(container)));
        }
        for (EnvVar var : container.envOrEmpty()) {
            String value;
            if (var.valueFrom() != null
                    && config != null
                    && (var.valueFrom().configMapKeyRef() != null
                            || var.valueFrom().secretKeyRef() != null)) {
                Optional<String> fromObject = var.valueFrom().configMapKeyRef() != null
                        ? config.value(PodViews.as(var.valueFrom().configMapKeyRef(), ConfigMapKeySelector.class))
                        : config.value(PodViews.as(var.valueFrom().secretKeyRef(), SecretKeySelector.class));
                if (fromObject.isEmpty()) {
                    continue; // optional and missing: the variable is not set
                }
                value = fromObject.get();
            } else if (var.valueFrom() != null) {
                value = fromSource(pod, container, var);
            } else {
                value = Expansion.expand(var.value() == null ? "" : var.value(), env::get);
            }
            env.put(var.name(), value);
        }
        return env;
    }

    public static List<String> expandAll(List<String> words, Map<String, String> env) {
        if (words == null) {
            return null;
        }
        List<String> out = new ArrayList<>(words.size());
        for (String w : words) {
            out.add(Expansion.expand(w, env::get));
        }
        return out;
    }

    private String fromSource(Pod pod, Container container, EnvVar var) throws ContainerStartException {
        var src = var.valueFrom();
        if (src.fieldRef() != null) {
            return fieldRef(pod, src.fieldRef().fieldPath(), container, var);
        }
        if (src.configMapKeyRef() != null) {
            throw ContainerStartException.waiting(
                    ContainerStartException.CREATE_CONFIG_ERROR,
                    "configmap \"" + src.configMapKeyRef().path("name").asText() + "\" not found");
        }
        if (src.secretKeyRef() != null) {
            throw ContainerStartException.waiting(
                    ContainerStartException.CREATE_CONFIG_ERROR,
                    "secret \"" + src.secretKeyRef().path("name").asText() + "\" not found");
        }
        if (src.resourceFieldRef() != null) {
            String resource = src.resourceFieldRef().path("resource").asText();
            // no resource accounting here: limits are the node's, requests are zero
            return switch (resource) {
                case "limits.cpu" -> Integer.toString(Runtime.getRuntime().availableProcessors());
                case "limits.memory" -> Long.toString(NodeFacts.memoryBytes());
                default -> "0";
            };
        }
        return "";
    }

    private String fieldRef(Pod pod, String path, Container container, EnvVar var) throws ContainerStartException {
        var meta = pod.metadata();
        Matcher m = MAP_KEY.matcher(path == null ? "" : path);
        if (m.matches()) {
            Map<String, String> map = m.group(1).equals("labels") ? meta.labelsOrEmpty() : meta.annotationsOrEmpty();
            return map.getOrDefault(m.group(2), "");
        }
        String value =
                switch (path == null ? "" : path) {
                    case "metadata.name" -> meta.name();
                    case "metadata.namespace" -> meta.namespace();
                    case "metadata.uid" -> meta.uid();
                    case "spec.nodeName" -> pod.spec().nodeName();
                    case "spec.serviceAccountName" -> pod.spec().serviceAccountName() != null
                            ? pod.spec().serviceAccountName()
                            : "default";
                    case "status.hostIP", "status.hostIPs" -> hostIp;
                    case "status.podIP", "status.podIPs" -> podIp;
                    default -> throw ContainerStartException.waiting(
                            ContainerStartException.CREATE_CONFIG_ERROR,
                            "unsupported fieldPath \"" + path + "\" in env " + var.name() + " of container "
                                    + container.name());
                };
        return value == null ? "" : value;
    }
}
