package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;
import java.util.Map;

/**
 * core/v1 PodSpec. Typed where the control plane interprets a field; the rest is kept as JSON.
 */
@RecordBuilder
public record PodSpec(
        List<JsonNode> volumes,
        List<Container> initContainers,
        List<Container> containers,
        List<JsonNode> ephemeralContainers,
        String restartPolicy,
        Long terminationGracePeriodSeconds,
        Long activeDeadlineSeconds,
        String dnsPolicy,
        Map<String, String> nodeSelector,
        String serviceAccountName,
        String serviceAccount,
        Boolean automountServiceAccountToken,
        String nodeName,
        Boolean hostNetwork,
        Boolean hostPID,
        Boolean hostIPC,
        Boolean shareProcessNamespace,
        JsonNode securityContext,
        List<JsonNode> imagePullSecrets,
        String hostname,
        String subdomain,
        JsonNode affinity,
        String schedulerName,
        List<JsonNode> tolerations,
        List<JsonNode> hostAliases,
        String priorityClassName,
        Integer priority,
        JsonNode dnsConfig,
        List<JsonNode> readinessGates,
        String runtimeClassName,
        Boolean enableServiceLinks,
        String preemptionPolicy,
        Map<String, JsonNode> overhead,
        List<JsonNode> topologySpreadConstraints,
        Boolean setHostnameAsFQDN,
        JsonNode os,
        Boolean hostUsers,
        List<JsonNode> schedulingGates,
        List<JsonNode> resourceClaims)
        implements PodSpecBuilder.With {
    public static final String RESTART_ALWAYS = "Always";
    public static final String RESTART_ON_FAILURE = "OnFailure";
    public static final String RESTART_NEVER = "Never";

    public List<Container> containersOrEmpty() {
        return containers == null ? List.of() : containers;
    }

    public List<Container> initContainersOrEmpty() {
        return initContainers == null ? List.of() : initContainers;
    }
}
