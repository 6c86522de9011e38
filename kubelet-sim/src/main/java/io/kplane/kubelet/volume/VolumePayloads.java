package io.kplane.kubelet.volume;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.core.ConfigMapVolumeSource;
import io.kplane.api.core.DownwardAPIVolumeFile;
import io.kplane.api.core.KeyToPath;
import io.kplane.api.core.Pod;
import io.kplane.api.core.ProjectedVolumeSource;
import io.kplane.api.core.SecretVolumeSource;
import io.kplane.api.core.VolumeProjection;
import io.kplane.kubelet.config.ConfigObjects;
import io.kplane.kubelet.config.ObjectData;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The files of configMap, secret, downwardAPI and projected volumes, as the kubelet's volume plugins
 * compute them (MakePayload / CollectData): every key with {@code defaultMode} (0644 unless set), or
 * only {@code items}, each at its {@code path} with its own {@code mode}. A missing object fails the
 * set-up unless the source is {@code optional} (then the volume is empty); so does a missing item key.
 */
final class VolumePayloads {
    static final int DEFAULT_MODE = 0644;

    private final ConfigObjects objects;
    private final String hostIp;

    VolumePayloads(ConfigObjects objects, String hostIp) {
        this.objects = objects;
        this.hostIp = hostIp;
    }

    Map<String, FileProjection> configMap(Pod pod, ConfigMapVolumeSource src) throws VolumeSetupException {
        int mode = src.defaultMode() == null ? DEFAULT_MODE : src.defaultMode();
        return configMap(pod, src.name(), src.itemsOrEmpty(), Boolean.TRUE.equals(src.optional()), mode);
    }

    Map<String, FileProjection> secret(Pod pod, SecretVolumeSource src) throws VolumeSetupException {
        int mode = src.defaultMode() == null ? DEFAULT_MODE : src.defaultMode();
        return secret(pod, src.secretName(), src.itemsOrEmpty(), Boolean.TRUE.equals(src.optional()), mode);
    }

    Map<String, FileProjection> downwardApi(Pod pod, List<DownwardAPIVolumeFile> items, Integer defaultMode)
            throws VolumeSetupException {
        int mode = defaultMode == null ? DEFAULT_MODE : defaultMode;
        Map<String, FileProjection> out = new LinkedHashMap<>();
        for (DownwardAPIVolumeFile f : items) {
            String value;
            try {
                value = f.fieldRef() != null
                        ? DownwardApiValues.field(pod, f.fieldRef().fieldPath(), hostIp)
                        : f.resourceFieldRef() != null ? DownwardApiValues.resource(f.resourceFieldRef()) : "";
            } catch (IllegalArgumentException e) {
                throw new VolumeSetupException(e.getMessage());
            }
            out.put(
                    f.path(),
                    new FileProjection(value.getBytes(StandardCharsets.UTF_8), f.mode() == null ? mode : f.mode()));
        }
        return out;
    }

    /**
     * @param tokenSkipped called with the path of each ServiceAccount token source: kplane issues no tokens
     */
    Map<String, FileProjection> projected(
            Pod pod, ProjectedVolumeSource src, java.util.function.Consumer<String> tokenSkipped)
            throws VolumeSetupException {
        int mode = src.defaultMode() == null ? DEFAULT_MODE : src.defaultMode();
        Map<String, FileProjection> out = new LinkedHashMap<>();
        for (VolumeProjection p : src.sourcesOrEmpty()) {
            if (p.configMap() != null) {
                out.putAll(configMap(
                        pod,
                        p.configMap().name(),
                        orEmpty(p.configMap().items()),
                        Boolean.TRUE.equals(p.configMap().optional()),
                        mode));
            } else if (p.secret() != null) {
                out.putAll(secret(
                        pod,
                        p.secret().name(),
                        orEmpty(p.secret().items()),
                        Boolean.TRUE.equals(p.secret().optional()),
                        mode));
            } else if (p.downwardAPI() != null) {
                out.putAll(downwardApi(pod, orEmpty(p.downwardAPI().items()), mode));
            } else if (p.serviceAccountToken() != null) {
                tokenSkipped.accept(p.serviceAccountToken().path());
            } else if (p.clusterTrustBundle() != null) {
                throw new VolumeSetupException("clusterTrustBundle projections are not supported by kplane");
            }
        }
        return out;
    }

    private Map<String, FileProjection> configMap(
            Pod pod, String name, List<KeyToPath> items, boolean optional, int mode) throws VolumeSetupException {
        Optional<JsonNode> cm = objects.configMap(pod.metadata().namespace(), name);
        if (cm.isEmpty()) {
            if (optional) {
                return Map.of();
            }
            throw new VolumeSetupException("configmap \"" + name + "\" not found");
        }
        return project(
                ObjectData.configMapFiles(cm.get()),
                items,
                optional,
                mode,
                "configmap references " + "non-existent config key: ");
    }

    private Map<String, FileProjection> secret(Pod pod, String name, List<KeyToPath> items, boolean optional, int mode)
            throws VolumeSetupException {
        Optional<JsonNode> secret = objects.secret(pod.metadata().namespace(), name);
        if (secret.isEmpty()) {
            if (optional) {
                return Map.of();
            }
            throw new VolumeSetupException("secret \"" + name + "\" not found");
        }
        return project(
                ObjectData.secretData(secret.get()), items, optional, mode, "references non-existent secret key: ");
    }

    private static Map<String, FileProjection> project(
            Map<String, byte[]> data, List<KeyToPath> items, boolean optional, int mode, String missingKey)
            throws VolumeSetupException {
        Map<String, FileProjection> out = new LinkedHashMap<>();
        if (items.isEmpty()) {
            data.forEach((k, v) -> out.put(k, new FileProjection(v, mode)));
            return out;
        }
        for (KeyToPath item : items) {
            byte[] value = data.get(item.key());
            if (value == null) {
                if (optional) {
                    continue;
                }
                throw new VolumeSetupException(missingKey + item.key());
            }
            out.put(item.path(), new FileProjection(value, item.mode() == null ? mode : item.mode()));
        }
        return out;
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
