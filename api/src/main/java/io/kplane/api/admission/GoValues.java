package io.kplane.api.admission;

import io.kplane.api.json.Json;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Renders values the way Kubernetes' Go code prints them in error messages. */
final class GoValues {
    private GoValues() {}

    static String render(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof GoLiteral literal) {
            return literal.text();
        }
        if (value instanceof String s) {
            return quote(s);
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof Map<?, ?> map && map.values().stream().allMatch(v -> v instanceof String)) {
            // Go prints map[string]string{"a":"b", "c":"d"} with sorted keys.
            return new TreeMap<>(map)
                    .entrySet().stream()
                            .map(e -> quote(String.valueOf(e.getKey())) + ":" + quote((String) e.getValue()))
                            .collect(Collectors.joining(", ", "map[string]string{", "}"));
        }
        if (value instanceof List<?> list && !list.isEmpty() && list.stream().allMatch(v -> v instanceof Integer)) {
            return list.stream().map(String::valueOf).collect(Collectors.joining(", ", "[]int32{", "}"));
        }
        return Json.write(value);
    }

    /** Go's {@code %q}. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** {@code "a", "b"}: how field.NotSupported lists the supported values. */
    static String quotedList(List<String> values) {
        return values.stream().map(GoValues::quote).collect(Collectors.joining(", "));
    }

    /** {@code ["a" "b"]}: Go's {@code %q} of a string slice. */
    static String goSlice(List<String> values) {
        return values.stream().map(GoValues::quote).collect(Collectors.joining(" ", "[", "]"));
    }
}
