package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * A container in a pod. Fields the control plane does not interpret are kept as JSON so that manifests
 * round-trip unchanged.
 */
@RecordBuilder
public record Container(
        String name,
        String image,
        List<String> command,
        List<String> args,
        String workingDir,
        List<ContainerPort> ports,
        List<JsonNode> envFrom,
        List<EnvVar> env,
        JsonNode resources,
        List<JsonNode> resizePolicy,
        String restartPolicy,
        List<JsonNode> volumeMounts,
        List<JsonNode> volumeDevices,
        JsonNode livenessProbe,
        JsonNode readinessProbe,
        JsonNode startupProbe,
        JsonNode lifecycle,
        String terminationMessagePath,
        String terminationMessagePolicy,
        String imagePullPolicy,
        JsonNode securityContext,
        Boolean stdin,
        Boolean stdinOnce,
        Boolean tty)
        implements ContainerBuilder.With {
    public static final String PULL_ALWAYS = "Always";
    public static final String PULL_IF_NOT_PRESENT = "IfNotPresent";
    public static final String PULL_NEVER = "Never";

    public List<EnvVar> envOrEmpty() {
        return env == null ? List.of() : env;
    }
}
