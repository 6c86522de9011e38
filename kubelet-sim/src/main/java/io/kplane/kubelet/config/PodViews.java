package io.kplane.kubelet.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.core.Container;
import io.kplane.api.core.EnvFromSource;
import io.kplane.api.core.PodSpec;
import io.kplane.api.core.Volume;
import io.kplane.api.core.VolumeMount;
import io.kplane.api.json.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * Typed views of the parts of a pod the API model keeps as JSON (so that they round-trip unchanged):
 * volumes, volumeMounts, envFrom and the key selectors of env sources.
 */
public final class PodViews {
    private PodViews() {}

    public static List<Volume> volumes(PodSpec spec) {
        return list(spec.volumes(), Volume.class);
    }

    public static List<VolumeMount> volumeMounts(Container c) {
        return list(c.volumeMounts(), VolumeMount.class);
    }

    public static List<EnvFromSource> envFrom(Container c) {
        return list(c.envFrom(), EnvFromSource.class);
    }

    public static <T> T as(JsonNode node, Class<T> type) {
        try {
            return Json.mapper().treeToValue(node, type);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot read " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    private static <T> List<T> list(List<JsonNode> nodes, Class<T> type) {
        List<T> out = new ArrayList<>();
        if (nodes != null) {
            for (JsonNode n : nodes) {
                out.add(as(n, type));
            }
        }
        return out;
    }
}
