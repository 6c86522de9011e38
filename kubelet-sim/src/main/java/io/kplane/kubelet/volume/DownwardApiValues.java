package io.kplane.kubelet.volume;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.core.Pod;
import io.kplane.kubelet.pod.NodeFacts;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The values of a downwardAPI volume's files, formatted as the kubelet's fieldpath package does. */
final class DownwardApiValues {
    private static final Pattern MAP_KEY = Pattern.compile("metadata\\.(annotations|labels)\\['(.*)'\\]");

    private DownwardApiValues() {}

    static String field(Pod pod, String path, String hostIp) {
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
                    case "metadata.labels" -> formatMap(meta.labelsOrEmpty());
                    case "metadata.annotations" -> formatMap(meta.annotationsOrEmpty());
                    case "spec.nodeName" -> pod.spec().nodeName();
                    case "spec.serviceAccountName" -> pod.spec().serviceAccountName();
                    case "status.hostIP", "status.podIP" -> hostIp;
                    default -> throw new IllegalArgumentException("unsupported fieldPath \"" + path + "\"");
                };
        return value == null ? "" : value;
    }

    /** {@code limits.cpu} / {@code limits.memory} are the node's (kplane does no resource accounting), requests 0. */
    static String resource(JsonNode ref) {
        return switch (ref.path("resource").asText()) {
            case "limits.cpu" -> Integer.toString(Runtime.getRuntime().availableProcessors());
            case "limits.memory" -> Long.toString(NodeFacts.memoryBytes());
            default -> "0";
        };
    }

    /** fieldpath.FormatMap: sorted {@code key="value"} lines, values quoted like Go's strconv.Quote. */
    static String formatMap(Map<String, String> map) {
        StringBuilder out = new StringBuilder();
        for (var e : new TreeMap<>(map).entrySet()) {
            if (out.length() > 0) {
                out.append('\n');
            }
            out.append(e.getKey())
                    .append("=\"")
                    .append(e.getValue()
                            .replace("\\", "\\\\")
                            .replace("\"", "\\\"")
                            .replace("\n", "\\n")
                            .replace("\t", "\\t"))
                    .append('"');
        }
        return out.toString();
    }
}
