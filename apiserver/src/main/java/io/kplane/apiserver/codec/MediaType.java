package io.kplane.apiserver.codec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A parsed media type, e.g. {@code application/json;as=Table;v=v1;g=meta.k8s.io}. */
public record MediaType(String type, Map<String, String> parameters) {

    public static MediaType parse(String value) {
        if (value == null || value.isBlank()) {
            return new MediaType("", Map.of());
        }
        String[] parts = value.split(";", -1);
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim();
            int eq = p.indexOf('=');
            if (eq > 0) {
                params.put(
                        p.substring(0, eq).trim().toLowerCase(Locale.ROOT),
                        unquote(p.substring(eq + 1).trim()));
            }
        }
        return new MediaType(parts[0].trim().toLowerCase(Locale.ROOT), params);
    }

    /** Parses an Accept header into its alternatives, in the order given (kubectl lists its preference first). */
    public static List<MediaType> parseAccept(String accept) {
        if (accept == null || accept.isBlank()) {
            return List.of(new MediaType("*/*", Map.of()));
        }
        return splitTopLevel(accept).stream().map(MediaType::parse).toList();
    }

    private static List<String> splitTopLevel(String accept) {
        java.util.ArrayList<String> out = new java.util.ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < accept.length(); i++) {
            char c = accept.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(accept.substring(start, i));
                start = i + 1;
            }
        }
        out.add(accept.substring(start));
        return out.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    public String param(String name) {
        return parameters.get(name);
    }

    public boolean is(String candidate) {
        return type.equals(candidate);
    }

    /** application/json, or a wildcard that admits it. */
    public boolean admitsJson() {
        return type.equals("application/json") || type.equals("*/*") || type.equals("application/*");
    }
}
