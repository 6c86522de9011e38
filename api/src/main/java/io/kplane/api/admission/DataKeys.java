package io.kplane.api.admission;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Helpers for the key/value bags of ConfigMaps and Secrets. */
final class DataKeys {
    static final String IMMUTABLE = "field is immutable when `immutable` is set";

    private DataKeys() {}

    static Map<String, String> orEmpty(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }

    static Map<String, String> orNullIfEmpty(Map<String, String> m) {
        return m == null || m.isEmpty() ? null : m;
    }

    /** Go ranges over maps in random order; sorted keys make the error list stable. */
    static List<String> sorted(Map<String, String> m) {
        return m.keySet().stream().sorted().toList();
    }

    /** {@code data[key]}, as {@code field.NewPath("data").Key(key)} prints it. */
    static String path(String field, String key) {
        return field + "[" + key + "]";
    }

    static long utf8Length(String s) {
        return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Bytes a (valid) base64 value decodes to. */
    static long decodedLength(String base64) {
        if (base64 == null || base64.isEmpty()) {
            return 0;
        }
        int padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
        return (long) base64.length() / 4 * 3 - padding;
    }
}
