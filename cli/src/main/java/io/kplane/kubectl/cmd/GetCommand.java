package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.kubectl.Api;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.ResourceRef;
import io.kplane.kubectl.print.Output;
import io.kplane.kubectl.print.TablePrinter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code get}: tables come from the server (Table responses, the same columns kubectl shows);
 * {@code -o json|yaml|name|jsonpath} print the objects; {@code -w} streams changes as rows.
 */
@Command(name = "get", description = "Display one or many resources.")
public final class GetCommand extends BaseCommand {
    @Parameters(
            arity = "1..*",
            paramLabel = "TYPE[.GROUP] [NAME...] | TYPE/NAME...",
            description = "What to get: pods, jobs, cronjobs, nodes, events, namespaces, leases, all, or short names.")
    List<String> args;

    @Option(
            names = {"-o", "--output"},
            description = "Output format: json, yaml, name, wide, jsonpath=TEMPLATE.")
    String output;

    @Option(
            names = {"-l", "--selector"},
            description = "Label selector, e.g. app=pi,tier!=web.")
    String selector;

    @Option(names = "--field-selector", description = "Field selector, e.g. status.phase=Running.")
    String fieldSelector;

    @Option(
            names = {"-A", "--all-namespaces"},
            description = "List across all namespaces.")
    boolean allNamespaces;

    @Option(
            names = {"-w", "--watch"},
            description = "After listing, watch for changes.")
    boolean watch;

    @Option(names = "--watch-only", description = "Watch for changes without listing first.")
    boolean watchOnly;

    @Option(names = "--no-headers", description = "Do not print headers.")
    boolean noHeaders;

    @Option(names = "--request-timeout", description = "Stop watching after this long (e.g. 30s, 1m).")
    String requestTimeout;

    @Override
    public Integer call() {
        OutputOptions format = OutputOptions.parse(output);
        String ns = allNamespaces ? null : namespace();
        List<ResourceRef> refs = ResourceRef.parse(args, ns);
        boolean several = severalTypes(refs);
        if (watch || watchOnly) {
            if (several) {
                throw new CliException("error: you may only specify a single resource type");
            }
            return watch(refs, format);
        }
        boolean printedAny = false;
        boolean first = true;
        List<JsonNode> objects = new ArrayList<>();
        for (ResourceRef ref : refs) {
            if (format.isTable()) {
                JsonNode table = ref.name() == null ? listTable(ref) : api().get(ref.path(), Map.of(), Api.TABLE);
                if (table.path("rows").isEmpty()) {
                    continue;
                }
                if (!first) {
                    out().println();
                }
                first = false;
                TablePrinter printer = new TablePrinter(
                        format.kind == OutputOptions.Kind.WIDE,
                        allNamespaces,
                        several ? ResourceRef.qualifiedKind(ref.type()) : null);
                out().print(printer.print(table, !noHeaders));
                printedAny = true;
            } else if (ref.name() == null) {
                for (JsonNode item : listObjects(ref)) {
                    objects.add(withTypeMeta(item, ref));
                }
            } else {
                objects.add(withTypeMeta(api().get(ref.path()), ref));
            }
        }
        if (!format.isTable()) {
            boolean single = refs.size() == 1 && refs.get(0).name() != null;
            if (format.kind == OutputOptions.Kind.NAME) {
                for (JsonNode o : objects) {
                    out().print(OutputOptions.names(
                            o, ResourceRef.type(o.path("kind").asText())));
                }
            } else {
                out().print(format.render(
                        single ? objects.get(0) : Output.list(objects),
                        refs.get(0).type()));
            }
            printedAny = !objects.isEmpty() || single;
            if (!printedAny && format.kind != OutputOptions.Kind.NAME) {
                return 0;
            }
        }
        if (!printedAny) {
            err().println(
                            allNamespaces || ns == null || !refs.get(0).type().namespaced()
                                    ? "No resources found"
                                    : "No resources found in " + ns + " namespace.");
        }
        out().flush();
        return 0;
    }

    /**
     * Whether {@code refs} name more than one resource type. Compared by group and resource, not with
     * {@code distinct()}: the first {@code hashCode()} of a record links its {@code ObjectMethods}
     * bootstrap, which was 8% of a {@code get pods} run's CPU (JFR; docs/performance.md).
     */
    static boolean severalTypes(List<ResourceRef> refs) {
        for (ResourceRef ref : refs) {
            if (!ref.type().group().equals(refs.get(0).type().group())
                    || !ref.type().resource().equals(refs.get(0).type().resource())) {
                return true;
            }
        }
        return false;
    }

    private Map<String, String> listQuery(String limitOrNull, String continueToken) {
        Map<String, String> q = new LinkedHashMap<>();
        if (limitOrNull != null) {
            q.put("limit", limitOrNull);
        }
        if (selector != null) {
            q.put("labelSelector", selector);
        }
        if (fieldSelector != null) {
            q.put("fieldSelector", fieldSelector);
        }
        if (continueToken != null && !continueToken.isEmpty()) {
            q.put("continue", continueToken);
        }
        return q;
    }

    /** All pages of a Table list, merged into one Table. */
    private JsonNode listTable(ResourceRef ref) {
        ObjectNode merged = null;
        String next = null;
        do {
            JsonNode page = api().get(ref.collectionPath(), listQuery("500", next), Api.TABLE);
            if (merged == null) {
                merged = (ObjectNode) page;
            } else {
                ((com.fasterxml.jackson.databind.node.ArrayNode) merged.withArray("rows"))
                        .addAll((com.fasterxml.jackson.databind.node.ArrayNode) page.path("rows"));
            }
            next = page.path("metadata").path("continue").asText("");
        } while (!next.isEmpty());
        return merged;
    }

    private List<JsonNode> listObjects(ResourceRef ref) {
        List<JsonNode> items = new ArrayList<>();
        String next = null;
        do {
            JsonNode page = api().get(ref.collectionPath(), listQuery("500", next), Api.JSON);
            page.path("items").forEach(items::add);
            next = page.path("metadata").path("continue").asText("");
        } while (!next.isEmpty());
        return items;
    }

    private static JsonNode withTypeMeta(JsonNode item, ResourceRef ref) {
        if (item.has("kind") || !(item instanceof ObjectNode o)) {
            return item;
        }
        ObjectNode copy = Json.mapper().createObjectNode();
        copy.put("apiVersion", ref.type().apiVersion());
        copy.put("kind", ref.type().kind());
        copy.setAll(o);
        return copy;
    }

    private int watch(List<ResourceRef> refs, OutputOptions format) {
        ResourceRef ref = refs.get(0);
        String accept = format.isTable() ? Api.TABLE : Api.JSON;
        TablePrinter printer = new TablePrinter(format.kind == OutputOptions.Kind.WIDE, allNamespaces, null);
        Map<String, String> query = listQuery(null, null);
        String resourceVersion;
        if (ref.name() != null) {
            query.put("fieldSelector", "metadata.name=" + ref.name());
            JsonNode current = api().get(ref.path(), Map.of(), accept);
            resourceVersion = current.path("metadata").path("resourceVersion").asText("");
            if (!watchOnly) {
                printInitial(current, format, printer, ref);
            }
        } else {
            JsonNode list =
                    format.isTable() ? listTable(ref) : api().get(ref.collectionPath(), listQuery("500", null), accept);
            resourceVersion = list.path("metadata").path("resourceVersion").asText("");
            if (!watchOnly) {
                printInitial(list, format, printer, ref);
            }
        }
        out().flush();
        query.put("watch", "true");
        query.put("resourceVersion", resourceVersion);
        if (requestTimeout != null) {
            query.put(
                    "timeoutSeconds",
                    Long.toString(Durations.requestTimeout(requestTimeout).toSeconds()));
        }
        boolean headerPrinted = !watchOnly && format.isTable();
        try (InputStream stream = api().stream(ref.collectionPath(), query, accept);
                BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode event = Json.mapper().readTree(line);
                String type = event.path("type").asText();
                JsonNode object = event.path("object");
                if (type.equals("ERROR")) {
                    throw new CliException(
                            "Error from server (" + object.path("reason").asText("Unknown") + "): "
                                    + object.path("message").asText());
                }
                if (type.equals("BOOKMARK")) {
                    continue;
                }
                if (format.isTable()) {
                    out().print(printer.print(object, !headerPrinted && !noHeaders));
                    headerPrinted = true;
                } else {
                    out().print(format.render(object, ref.type()));
                }
                out().flush();
            }
        } catch (IOException e) {
            // the stream ended: kubectl exits quietly too
        }
        return 0;
    }

    private void printInitial(JsonNode node, OutputOptions format, TablePrinter printer, ResourceRef ref) {
        if (format.isTable()) {
            out().print(printer.print(node, !noHeaders));
        } else if (node.path("items").isArray()) {
            for (JsonNode item : node.path("items")) {
                out().print(format.render(withTypeMeta(item, ref), ref.type()));
            }
        } else {
            out().print(format.render(node, ref.type()));
        }
    }
}
