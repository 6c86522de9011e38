package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.ResourceType;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.ResourceRef;
import io.kplane.kubectl.print.JsonPathTemplate;
import io.kplane.kubectl.print.Output;

/** {@code -o json|yaml|name|wide|jsonpath=...}: how objects are printed. */
final class OutputOptions {
    enum Kind {
        TABLE,
        WIDE,
        JSON,
        YAML,
        NAME,
        JSONPATH
    }

    final Kind kind;
    final JsonPathTemplate jsonPath;

    private OutputOptions(Kind kind, JsonPathTemplate jsonPath) {
        this.kind = kind;
        this.jsonPath = jsonPath;
    }

    static OutputOptions parse(String output) {
        if (output == null || output.isEmpty()) {
            return new OutputOptions(Kind.TABLE, null);
        }
        if (output.startsWith("jsonpath=") || output.startsWith("jsonpath-as-json=")) {
            return new OutputOptions(Kind.JSONPATH, JsonPathTemplate.parse(output.substring(output.indexOf('=') + 1)));
        }
        return switch (output) {
            case "wide" -> new OutputOptions(Kind.WIDE, null);
            case "json" -> new OutputOptions(Kind.JSON, null);
            case "yaml" -> new OutputOptions(Kind.YAML, null);
            case "name" -> new OutputOptions(Kind.NAME, null);
            default -> throw new CliException("error: unable to match a printer suitable for the output format \""
                    + output + "\", allowed formats are: json,jsonpath,name,wide,yaml");
        };
    }

    boolean isTable() {
        return kind == Kind.TABLE || kind == Kind.WIDE;
    }

    /** One object (or a List) in a non-table format. */
    String render(JsonNode node, ResourceType type) {
        return switch (kind) {
            case JSON -> Output.json(node);
            case YAML -> Output.yaml(node);
            case JSONPATH -> jsonPath.render(node);
            case NAME -> names(node, type);
            default -> throw new IllegalStateException(kind.name());
        };
    }

    static String names(JsonNode node, ResourceType type) {
        StringBuilder sb = new StringBuilder();
        if (node.path("items").isArray()) {
            for (JsonNode item : node.path("items")) {
                sb.append(ResourceRef.qualifiedKind(type))
                        .append('/')
                        .append(item.path("metadata").path("name").asText())
                        .append('\n');
            }
        } else {
            sb.append(ResourceRef.qualifiedKind(type))
                    .append('/')
                    .append(node.path("metadata").path("name").asText())
                    .append('\n');
        }
        return sb.toString();
    }
}
