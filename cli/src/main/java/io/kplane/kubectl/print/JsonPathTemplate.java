package io.kplane.kubectl.print;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.kubectl.CliException;
import java.util.ArrayList;
import java.util.List;

/**
 * The subset of kubectl's JSONPath templates people use: {@code {.a.b}}, {@code [n]}, {@code [*]},
 * {@code [?(@.type=="Complete")]}, {@code {range ...}...{end}}, and string literals such as
 * {@code {"\n"}}. Several results of one expression are separated by spaces, like kubectl.
 */
public final class JsonPathTemplate {
    private sealed interface Part permits Literal, Expr, Range {}

    private record Literal(String text) implements Part {}

    private record Expr(String path) implements Part {}

    private record Range(String path, List<Part> body) implements Part {}

    private final List<Part> parts;

    private JsonPathTemplate(List<Part> parts) {
        this.parts = parts;
    }

    public static JsonPathTemplate parse(String template) {
        List<List<Part>> stack = new ArrayList<>();
        List<String> rangePaths = new ArrayList<>();
        List<Part> current = new ArrayList<>();
        int i = 0;
        while (i < template.length()) {
            int open = template.indexOf('{', i);
            if (open < 0) {
                current.add(new Literal(template.substring(i)));
                break;
            }
            if (open > i) {
                current.add(new Literal(template.substring(i, open)));
            }
            int close = findClose(template, open);
            String inner = template.substring(open + 1, close).trim();
            if (inner.startsWith("range ")) {
                stack.add(current);
                rangePaths.add(inner.substring(6).trim());
                current = new ArrayList<>();
            } else if (inner.equals("end")) {
                if (stack.isEmpty()) {
                    throw new CliException(
                            "error: error parsing jsonpath " + template + ", not in range, nothing to end");
                }
                Range range = new Range(rangePaths.remove(rangePaths.size() - 1), current);
                current = stack.remove(stack.size() - 1);
                current.add(range);
            } else if (inner.startsWith("\"") && inner.endsWith("\"") && inner.length() >= 2) {
                current.add(new Literal(unescape(inner.substring(1, inner.length() - 1))));
            } else {
                current.add(new Expr(inner));
            }
            i = close + 1;
        }
        if (!stack.isEmpty()) {
            throw new CliException("error: error parsing jsonpath " + template + ", unclosed range");
        }
        return new JsonPathTemplate(current);
    }

    private static int findClose(String t, int open) {
        boolean quoted = false;
        for (int i = open + 1; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '"' && t.charAt(i - 1) != '\\') {
                quoted = !quoted;
            } else if (c == '}' && !quoted) {
                return i;
            }
        }
        throw new CliException("error: error parsing jsonpath " + t + ", unclosed action");
    }

    private static String unescape(String s) {
        return s.replace("\\n", "\n").replace("\\t", "\t").replace("\\\"", "\"").replace("\\\\", "\\");
    }

    public String render(JsonNode root) {
        StringBuilder out = new StringBuilder();
        render(parts, root, root, out);
        return out.toString();
    }

    private static void render(List<Part> parts, JsonNode root, JsonNode current, StringBuilder out) {
        for (Part p : parts) {
            if (p instanceof Literal l) {
                out.append(l.text());
            } else if (p instanceof Expr e) {
                List<String> values = new ArrayList<>();
                for (JsonNode n : evaluate(e.path(), root, current)) {
                    values.add(n.isValueNode() ? n.asText() : Json.write(n));
                }
                out.append(String.join(" ", values));
            } else if (p instanceof Range r) {
                for (JsonNode n : evaluate(r.path(), root, current)) {
                    render(r.body(), root, n, out);
                }
            }
        }
    }

    /** Evaluates one path expression ({@code .a.b[*]}, {@code $.a}) against the current node. */
    static List<JsonNode> evaluate(String path, JsonNode root, JsonNode current) {
        List<JsonNode> nodes = new ArrayList<>();
        String p = path;
        if (p.startsWith("$")) {
            nodes.add(root);
            p = p.substring(1);
        } else {
            nodes.add(current);
        }
        int i = 0;
        while (i < p.length()) {
            char c = p.charAt(i);
            if (c == '.') {
                int end = i + 1;
                StringBuilder name = new StringBuilder();
                while (end < p.length() && p.charAt(end) != '.' && p.charAt(end) != '[') {
                    // "\." is a dot inside a key, as in {.metadata.labels.app\.kubernetes\.io/name}
                    if (p.charAt(end) == '\\' && end + 1 < p.length()) {
                        end++;
                    }
                    name.append(p.charAt(end));
                    end++;
                }
                String field = name.toString();
                List<JsonNode> next = new ArrayList<>();
                for (JsonNode n : nodes) {
                    if (field.isEmpty()) {
                        next.add(n);
                    } else if (field.equals("*")) {
                        n.elements().forEachRemaining(next::add);
                    } else if (n.has(field)) {
                        next.add(n.get(field));
                    }
                }
                nodes = next;
                i = end;
            } else if (c == '[') {
                int end = p.indexOf(']', i);
                if (end < 0) {
                    throw new CliException("error: error parsing jsonpath " + path + ", unterminated array");
                }
                String index = p.substring(i + 1, end).trim();
                List<JsonNode> next = new ArrayList<>();
                if (index.length() >= 2
                        && (index.startsWith("'") && index.endsWith("'")
                                || index.startsWith("\"") && index.endsWith("\""))) {
                    // ['key.with.dots']: a field name in brackets
                    String field = index.substring(1, index.length() - 1);
                    for (JsonNode n : nodes) {
                        if (n.has(field)) {
                            next.add(n.get(field));
                        }
                    }
                    nodes = next;
                    i = end + 1;
                    continue;
                }
                for (JsonNode n : nodes) {
                    if (!n.isArray()) {
                        continue;
                    }
                    if (index.equals("*")) {
                        n.forEach(next::add);
                    } else if (index.startsWith("?(") && index.endsWith(")")) {
                        filter(n, index.substring(2, index.length() - 1), next);
                    } else {
                        try {
                            int k = Integer.parseInt(index);
                            int at = k < 0 ? n.size() + k : k;
                            if (at >= 0 && at < n.size()) {
                                next.add(n.get(at));
                            }
                        } catch (NumberFormatException e) {
                            throw new CliException("error: error parsing jsonpath " + path + ", bad index " + index);
                        }
                    }
                }
                nodes = next;
                i = end + 1;
            } else {
                throw new CliException(
                        "error: error parsing jsonpath " + path + ", unrecognized character '" + c + "'");
            }
        }
        return nodes;
    }

    /** {@code @.field=="value"} or {@code @.field} (exists). */
    private static void filter(JsonNode array, String condition, List<JsonNode> out) {
        String[] eq = condition.split("==", 2);
        String left = eq[0].trim();
        if (!left.startsWith("@")) {
            throw new CliException("error: unsupported jsonpath filter " + condition);
        }
        String expected = eq.length == 2 ? eq[1].trim().replaceAll("^[\"']|[\"']$", "") : null;
        for (JsonNode element : array) {
            List<JsonNode> found = evaluate(left.substring(1), element, element);
            if (!found.isEmpty() && (expected == null || found.get(0).asText().equals(expected))) {
                out.add(element);
            }
        }
    }
}
