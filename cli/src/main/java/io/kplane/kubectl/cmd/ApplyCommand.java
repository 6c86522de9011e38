package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.json.Json;
import io.kplane.client.ApiException;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.KubectlLite;
import io.kplane.kubectl.ResourceRef;
import io.kplane.kubectl.apply.Manifests;
import io.kplane.kubectl.apply.ThreeWayMerge;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code apply -f}: creates what is absent and patches what exists with a three-way strategic merge
 * against the last-applied annotation, like kubectl's client-side apply; {@code --server-side} sends
 * the manifest as an apply patch instead.
 */
@Command(name = "apply", description = "Apply a configuration to a resource by file name or stdin.")
public final class ApplyCommand extends BaseCommand {
    public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    @Option(
            names = {"-f", "--filename"},
            required = true,
            description = "Files, directories or - for stdin.")
    List<String> files;

    @Option(
            names = {"-R", "--recursive"},
            description = "Process directories recursively.")
    boolean recursive;

    @Option(names = "--server-side", description = "Apply on the server (apply patch) instead of the client.")
    boolean serverSide;

    @Option(names = "--force-conflicts", description = "With --server-side: take over conflicting fields.")
    boolean forceConflicts;

    @Option(names = "--field-manager", defaultValue = "kubectl-lite", description = "Field manager name.")
    String fieldManager;

    @Override
    public Integer call() {
        int failures = 0;
        for (Manifests.Manifest m : Manifests.read(files, recursive, stdin())) {
            try {
                out().println(apply(m));
            } catch (ApiException e) {
                err().println(KubectlLite.serverError(e, "error when applying \"" + m.source() + "\""));
                failures++;
            } catch (CliException e) {
                err().println(e.getMessage());
                failures++;
            }
        }
        out().flush();
        return failures == 0 ? 0 : 1;
    }

    private String apply(Manifests.Manifest m) {
        ObjectNode manifest = (ObjectNode) m.object().deepCopy();
        ResourceType type = typeOf(manifest, m.source());
        String name = manifest.path("metadata").path("name").asText("");
        if (name.isEmpty()) {
            throw new CliException("error: error when retrieving current configuration of \"" + m.source()
                    + "\": resource name may not be empty");
        }
        String ns = manifest.path("metadata").path("namespace").asText(namespace());
        if (type.namespaced()) {
            manifest.with("metadata").put("namespace", ns);
        }
        ResourceRef ref = new ResourceRef(type, type.namespaced() ? ns : null, name);
        if (serverSide) {
            Map<String, String> q = forceConflicts
                    ? Map.of("fieldManager", fieldManager, "fieldValidation", "Strict", "force", "true")
                    : Map.of("fieldManager", fieldManager, "fieldValidation", "Strict");
            api().call(
                            "PATCH",
                            ref.path(),
                            q,
                            (Json.write(manifest) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            "application/apply-patch+yaml",
                            "application/json");
            return ref.display() + " serverside-applied";
        }
        ObjectNode modified = withLastApplied(manifest);
        JsonNode live = api().getOrNull(ref.path());
        if (live == null) {
            api().send(
                            "POST",
                            ref.collectionPath(),
                            Map.of("fieldManager", "kubectl-client-side-apply", "fieldValidation", "Strict"),
                            modified,
                            "application/json");
            return ref.display() + " created";
        }
        JsonNode original = lastApplied(live);
        ObjectNode patch = ThreeWayMerge.patch(original, modified, live);
        if (patch.isEmpty()) {
            return ref.display() + " unchanged";
        }
        api().send(
                        "PATCH",
                        ref.path(),
                        Map.of("fieldManager", "kubectl-client-side-apply", "fieldValidation", "Strict"),
                        patch,
                        "application/strategic-merge-patch+json");
        return ref.display() + " configured";
    }

    static ResourceType typeOf(JsonNode manifest, String source) {
        String apiVersion = manifest.path("apiVersion").asText();
        String kind = manifest.path("kind").asText();
        return ResourceTypes.byApiVersionAndKind(apiVersion, kind)
                .orElseThrow(() -> new CliException("error: resource mapping not found for name: \""
                        + manifest.path("metadata").path("name").asText()
                        + "\" namespace: \"\" from \"" + source + "\": no matches for kind \"" + kind
                        + "\" in version \"" + apiVersion + "\""));
    }

    /**
     * The manifest plus the annotation holding its own JSON, written exactly as kubectl writes it (keys
     * sorted at every level as Go's encoding/json does for maps, {@code annotations} kept even when empty,
     * a trailing newline), so that kubectl and kubectl-lite each see the other's apply as unchanged.
     */
    static ObjectNode withLastApplied(ObjectNode manifest) {
        ObjectNode clean = manifest.deepCopy();
        ObjectNode annotations = clean.with("metadata").with("annotations");
        annotations.remove(LAST_APPLIED);
        ObjectNode modified = manifest.deepCopy();
        modified.with("metadata").with("annotations").put(LAST_APPLIED, Json.write(sortedKeys(clean)) + "\n");
        return modified;
    }

    private static JsonNode sortedKeys(JsonNode node) {
        if (node.isObject()) {
            ObjectNode sorted = Json.mapper().createObjectNode();
            java.util.List<String> names = new java.util.ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            for (String n : names) {
                sorted.set(n, sortedKeys(node.get(n)));
            }
            return sorted;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode array = Json.mapper().createArrayNode();
            node.forEach(e -> array.add(sortedKeys(e)));
            return array;
        }
        return node;
    }

    private static JsonNode lastApplied(JsonNode live) {
        String text =
                live.path("metadata").path("annotations").path(LAST_APPLIED).asText("");
        if (text.isEmpty()) {
            return null;
        }
        try {
            return Json.mapper().readTree(text);
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
