package io.kplane.kubelet.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * The API objects a pod's env and volumes are made from, as the kubelet's configMapManager /
 * secretManager / PVC lookups see them. Empty means the object does not exist (404); any other failure
 * throws, and the caller retries.
 */
public interface ConfigObjects {

    Optional<JsonNode> configMap(String namespace, String name);

    Optional<JsonNode> secret(String namespace, String name);

    Optional<JsonNode> persistentVolumeClaim(String namespace, String name);

    Optional<JsonNode> persistentVolume(String name);
}
