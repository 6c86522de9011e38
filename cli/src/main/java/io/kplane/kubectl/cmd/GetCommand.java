package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.kubectl.Api;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.GlobalOptions;
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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code get}: tables come from the server (Table responses, the same columns kubectl shows);
 * {@code -o json|yaml|name|jsonpath} print the objects; {@code -w} streams changes as rows.
 */
public final class GetCommand extends BaseCommand {
    private List<String> args;
    private String output;
    private String selector;
    private String fieldSelector;
    private boolean allNamespaces;
    private boolean watch;
    private boolean watchOnly;
    private boolean noHeaders;
    private String requestTimeout;

    private GetCommand() {}

    /**
     * {@code get}'s model, built in code rather than by picocli's reflection over annotations: {@code get}
     * is the command run most, and reading annotations (parsing them, one dynamic proxy class per
     * annotation type, which no class-data archive of JDK 17 can hold) was about 40% of a {@code get pods}
     * run's CPU samples (JFR, docs/performance.md "kubectl-lite"). Same options, texts and order as the
     * annotated model had: {@code HelpTest} compares the usage and completion texts with the recorded ones.
     */
    public static CommandSpec spec() {
        GetCommand get = new GetCommand();
        CommandSpec spec = CommandSpec.wrapWithoutInspection(get);
        spec.name("get");
        spec.usageMessage().description("Display one or many resources.");
        GlobalOptions.addTo(spec);
        spec.addPositional(PositionalParamSpec.builder()
                .arity("1..*")
                .required(true) // what picocli derives from the arity for an annotated parameter
                .paramLabel("TYPE[.GROUP] [NAME...] | TYPE/NAME...")
                .description(
                        "What to get: pods, jobs, cronjobs, nodes, events, namespaces, leases, all, or short names.")
                .type(List.class)
                .auxiliaryTypes(String.class)
                .build());
        spec.addOption(text("<output>", "Output format: json, yaml, name, wide, jsonpath=TEMPLATE.", "-o", "--output"));
        spec.addOption(text("<selector>", "Label selector, e.g. app=pi,tier!=web.", "-l", "--selector"));
        spec.addOption(text("<fieldSelector>", "Field selector, e.g. status.phase=Running.", "--field-selector"));
        spec.addOption(flag("List across all namespaces.", "-A", "--all-namespaces"));
        spec.addOption(flag("After listing, watch for changes.", "-w", "--watch"));
        spec.addOption(flag("Watch for changes without listing first.", "--watch-only"));
        spec.addOption(flag("Do not print headers.", "--no-headers"));
        spec.addOption(text("<requestTimeout>", "Stop watching after this long (e.g. 30s, 1m).", "--request-timeout"));
        get.spec = spec;
        return spec;
    }

    private static OptionSpec text(String label, String description, String... names) {
        return OptionSpec.builder(names)
                .paramLabel(label)
                .type(String.class)
                .description(description)
                .build();
    }

    private static OptionSpec flag(String description, String... names) {
        return OptionSpec.builder(names)
                .type(boolean.class)
                .description(description)
                .build();
    }

    /**
     * A {@code get} parsed without picocli ({@code QuickGet}): {@code words} are its parameters, {@code options}
     * its own options by their long names (a flag's value is {@code "true"}).
     */
    public static GetCommand parsed(List<String> words, Map<String, String> options) {
        GetCommand get = new GetCommand();
        get.args = words;
        get.output = options.get("--output");
        get.selector = options.get("--selector");
        get.fieldSelector = options.get("--field-selector");
        get.allNamespaces = options.containsKey("--all-namespaces");
        get.watch = options.containsKey("--watch");
        get.watchOnly = options.containsKey("--watch-only");
        get.noHeaders = options.containsKey("--no-headers");
        get.requestTimeout = options.get("--request-timeout");
        return get;
    }

    /** The parsed values (picocli keeps them in the model it was given). */
    private void readOptions() {
        args = spec.positionalParameters().get(0).getValue();
        output = spec.findOption("--output").getValue();
        selector = spec.findOption("--selector").getValue();
        fieldSelector = spec.findOption("--field-selector").getValue();
        allNamespaces = isSet("--all-namespaces");
        watch = isSet("--watch");
        watchOnly = isSet("--watch-only");
        noHeaders = isSet("--no-headers");
        requestTimeout = spec.findOption("--request-timeout").getValue();
    }

    private boolean isSet(String name) {
        return Boolean.TRUE.equals(spec.findOption(name).getValue());
    }

    @Override
    public Integer call() {
        if (spec != null) { // else parsed without a model: the values are set
            readOptions();
        }
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
