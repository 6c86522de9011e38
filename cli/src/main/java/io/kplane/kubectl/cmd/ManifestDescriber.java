package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * kubectl 1.32's describe layout for the kinds manifests bring along: ConfigMap, Secret,
 * ServiceAccount, PersistentVolumeClaim, PersistentVolume and the RBAC kinds (which get a note that
 * kplane does not enforce them). Go ranges over maps in random order; keys are sorted here.
 */
final class ManifestDescriber {
    static final String RBAC_NOTE = "Note: kplane stores RBAC objects but does not enforce them";
    private static final String L1 = "  ";
    private static final String L2 = "    ";

    private final Describer d;

    ManifestDescriber(Describer d) {
        this.d = d;
    }

    String configMap(JsonNode cm, List<JsonNode> events) {
        header(cm, true);
        d.write("\nData\n====\n");
        for (String key : sortedKeys(cm.path("data"))) {
            d.write(key + ":\n----\n" + cm.path("data").path(key).asText() + "\n\n");
        }
        d.write("\nBinaryData\n====\n");
        for (String key : sortedKeys(cm.path("binaryData"))) {
            d.write(key + ": " + decodedLength(cm.path("binaryData").path(key).asText()) + " bytes\n");
        }
        d.write("\n");
        d.events(events);
        return d.flush();
    }

    String secret(JsonNode secret) {
        header(secret, true);
        String type = secret.path("type").asText();
        d.write("\nType:\t" + type + "\n");
        d.write("\nData\n====\n");
        for (String key : sortedKeys(secret.path("data"))) {
            String value = secret.path("data").path(key).asText();
            if (key.equals("token") && type.equals("kubernetes.io/service-account-token")) {
                d.write(key + ":\t"
                        + new String(
                                java.util.Base64.getDecoder().decode(value), java.nio.charset.StandardCharsets.UTF_8)
                        + "\n");
            } else {
                d.write(key + ":\t" + decodedLength(value) + " bytes\n");
            }
        }
        return d.flush();
    }

    String serviceAccount(JsonNode sa, List<JsonNode> events) {
        header(sa, true);
        d.kv("", "Image pull secrets", namesOrNone(sa.path("imagePullSecrets")));
        d.kv("", "Mountable secrets", namesOrNone(sa.path("secrets")));
        d.kv("", "Tokens", "<none>");
        d.events(events);
        return d.flush();
    }

    String claim(JsonNode pvc, List<String> usedBy, List<JsonNode> events) {
        JsonNode meta = pvc.path("metadata");
        JsonNode spec = pvc.path("spec");
        d.kv("", "Name", meta.path("name").asText());
        d.kv("", "Namespace", meta.path("namespace").asText());
        d.kv("", "StorageClass", storageClass(pvc));
        d.kv("", "Status", status(pvc));
        d.kv("", "Volume", spec.path("volumeName").asText(""));
        d.labels("", "Labels", meta.path("labels"));
        d.labels("", "Annotations", meta.path("annotations"));
        d.kv("", "Finalizers", goList(meta.path("finalizers")));
        boolean bound = !spec.path("volumeName").asText("").isEmpty();
        d.kv(
                "",
                "Capacity",
                bound ? pvc.path("status").path("capacity").path("storage").asText("") : "");
        d.kv("", "Access Modes", bound ? accessModes(pvc.path("status").path("accessModes")) : "");
        if (spec.has("volumeMode")) {
            d.kv("", "VolumeMode", spec.path("volumeMode").asText());
        }
        if (usedBy.isEmpty()) {
            d.kv("", "Used By", "<none>");
        } else {
            d.kv("", "Used By", usedBy.get(0));
            for (String pod : usedBy.subList(1, usedBy.size())) {
                d.write("\t" + pod + "\n");
            }
        }
        d.events(events);
        return d.flush();
    }

    String volume(JsonNode pv, List<JsonNode> events) {
        JsonNode meta = pv.path("metadata");
        JsonNode spec = pv.path("spec");
        d.kv("", "Name", meta.path("name").asText());
        d.labels("", "Labels", meta.path("labels"));
        d.labels("", "Annotations", meta.path("annotations"));
        d.kv("", "Finalizers", goList(meta.path("finalizers")));
        d.kv("", "StorageClass", storageClass(pv));
        d.kv("", "Status", status(pv));
        JsonNode ref = spec.path("claimRef");
        d.kv(
                "",
                "Claim",
                ref.isObject()
                        ? ref.path("namespace").asText("") + "/"
                                + ref.path("name").asText("")
                        : "");
        d.kv("", "Reclaim Policy", spec.path("persistentVolumeReclaimPolicy").asText(""));
        d.kv("", "Access Modes", accessModes(spec.path("accessModes")));
        if (spec.has("volumeMode")) {
            d.kv("", "VolumeMode", spec.path("volumeMode").asText());
        }
        d.kv("", "Capacity", spec.path("capacity").path("storage").asText(""));
        d.kv("", "Node Affinity", spec.has("nodeAffinity") ? "" : "<none>");
        d.kv("", "Message", pv.path("status").path("message").asText(""));
        d.write("Source:\n");
        if (spec.has("hostPath")) {
            d.write(L2 + "Type:\tHostPath (bare host directory volume)\n");
            d.write(L2 + "Path:\t" + spec.path("hostPath").path("path").asText() + "\n");
            d.write(L2 + "HostPathType:\t" + spec.path("hostPath").path("type").asText("<none>") + "\n");
        } else if (spec.has("local")) {
            d.write(L2 + "Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n");
            d.write(L2 + "Path:\t" + spec.path("local").path("path").asText() + "\n");
        }
        d.events(events);
        return d.flush();
    }

    String role(JsonNode role) {
        header(role, false);
        d.write("PolicyRule:\n");
        d.write(L1 + "Resources\tNon-Resource URLs\tResource Names\tVerbs\n");
        d.write(L1 + "---------\t-----------------\t--------------\t-----\n");
        for (PolicyRow row : PolicyRow.of(role.path("rules"))) {
            d.write(L1 + row.resource() + "\t" + goList(row.nonResourceUrls()) + "\t" + goList(row.resourceNames())
                    + "\t" + goList(row.verbs()) + "\n");
        }
        d.write(RBAC_NOTE + "\n");
        return d.flush();
    }

    String binding(JsonNode binding) {
        header(binding, false);
        d.write("Role:\n");
        d.kv(L1, "Kind", binding.path("roleRef").path("kind").asText());
        d.kv(L1, "Name", binding.path("roleRef").path("name").asText());
        d.write("Subjects:\n");
        d.write(L1 + "Kind\tName\tNamespace\n");
        d.write(L1 + "----\t----\t---------\n");
        for (JsonNode s : binding.path("subjects")) {
            d.write(L1 + s.path("kind").asText() + "\t" + s.path("name").asText() + "\t"
                    + s.path("namespace").asText("") + "\n");
        }
        d.write(RBAC_NOTE + "\n");
        return d.flush();
    }

    private void header(JsonNode obj, boolean withNamespace) {
        JsonNode meta = obj.path("metadata");
        d.kv("", "Name", meta.path("name").asText());
        if (withNamespace) {
            d.kv("", "Namespace", meta.path("namespace").asText());
        }
        d.labels("", "Labels", meta.path("labels"));
        d.labels("", "Annotations", meta.path("annotations"));
    }

    private String status(JsonNode obj) {
        JsonNode deletion = obj.path("metadata").path("deletionTimestamp");
        if (deletion.isTextual()) {
            return "Terminating (lasts "
                    + io.kplane.api.util.HumanDuration.since(Describer.time(deletion), java.time.Instant.now()) + ")";
        }
        return obj.path("status").path("phase").asText("");
    }

    private static String storageClass(JsonNode obj) {
        JsonNode annotation = obj.path("metadata").path("annotations").path("volume.beta.kubernetes.io/storage-class");
        return annotation.isTextual()
                ? annotation.asText()
                : obj.path("spec").path("storageClassName").asText("");
    }

    static String accessModes(JsonNode modes) {
        List<String> given = new ArrayList<>();
        modes.forEach(m -> given.add(m.asText()));
        List<String> out = new ArrayList<>();
        String[][] table = {
            {"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}
        };
        for (String[] row : table) {
            if (given.contains(row[0])) {
                out.add(row[1]);
            }
        }
        return String.join(",", out);
    }

    /** A Go slice printed with {@code %v}: {@code [a b]}. */
    private static String goList(JsonNode list) {
        List<String> parts = new ArrayList<>();
        list.forEach(v -> parts.add(v.asText()));
        return goList(parts);
    }

    private static String goList(List<String> parts) {
        return "[" + String.join(" ", parts) + "]";
    }

    /**
     * One PolicyRule row as kubectl prints it: rules broken down to one resource (per API group) or one
     * non-resource URL each, rows that differ only in verbs merged, sorted.
     */
    record PolicyRow(String resource, List<String> nonResourceUrls, List<String> resourceNames, List<String> verbs) {
        static List<PolicyRow> of(JsonNode rules) {
            java.util.Map<String, PolicyRow> rows = new java.util.TreeMap<>();
            for (JsonNode rule : rules) {
                List<String> verbs = texts(rule.path("verbs"));
                List<String> names = texts(rule.path("resourceNames"));
                for (JsonNode r : rule.path("resources")) {
                    for (JsonNode g : rule.path("apiGroups")) {
                        String resource = g.asText().isEmpty() ? r.asText() : r.asText() + "." + g.asText();
                        merge(rows, new PolicyRow(resource, List.of(), names, verbs));
                    }
                }
                for (JsonNode url : rule.path("nonResourceURLs")) {
                    merge(rows, new PolicyRow("", List.of(url.asText()), List.of(), verbs));
                }
            }
            return List.copyOf(rows.values());
        }

        private static void merge(java.util.Map<String, PolicyRow> rows, PolicyRow row) {
            String key = row.resource() + "|" + row.nonResourceUrls() + "|" + row.resourceNames();
            PolicyRow existing = rows.get(key);
            if (existing == null) {
                rows.put(key, row);
                return;
            }
            List<String> verbs = new ArrayList<>(existing.verbs());
            row.verbs().stream().filter(v -> !verbs.contains(v)).forEach(verbs::add);
            rows.put(key, new PolicyRow(row.resource(), row.nonResourceUrls(), row.resourceNames(), verbs));
        }

        private static List<String> texts(JsonNode list) {
            List<String> out = new ArrayList<>();
            list.forEach(v -> out.add(v.asText()));
            return out;
        }
    }

    private static String namesOrNone(JsonNode list) {
        List<String> names = new ArrayList<>();
        list.forEach(v -> names.add(v.path("name").asText()));
        return names.isEmpty() ? "<none>" : String.join(", ", names);
    }

    private static List<String> sortedKeys(JsonNode map) {
        List<String> keys = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
            keys.add(it.next().getKey());
        }
        keys.sort(String::compareTo);
        return keys;
    }

    private static int decodedLength(String base64) {
        try {
            return java.util.Base64.getMimeDecoder().decode(base64).length;
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }
}
