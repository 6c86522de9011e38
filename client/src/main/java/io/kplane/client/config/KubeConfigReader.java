package io.kplane.client.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Maps a kubeconfig's YAML tree onto {@link KubeConfig} by hand instead of Jackson's record binding.
 * Why: a short-lived CLI reads a kubeconfig once per run, and building Jackson's bean deserializers for
 * the seven kubeconfig records (reflection over records, annotation parsing, a dynamic proxy class per
 * annotation type) was about a fifth of {@code kubectl-lite get pods}' CPU time (JFR,
 * docs/performance.md "kubectl-lite"). The rules are the lenient mapper's: unknown fields are ignored,
 * scalars are read as text, {@code true}/{@code false} strings count as booleans, and a wrong shape (a
 * map where a list belongs, ...) is an error naming the field.
 */
final class KubeConfigReader {
    private KubeConfigReader() {}

    /** The kubeconfig of {@code root}, or null for an empty document. */
    static KubeConfig read(JsonNode root) throws IOException {
        if (root == null || root.isMissingNode() || root.isNull()) {
            return null;
        }
        requireObject(root, "kubeconfig");
        return new KubeConfig(
                text(root, "apiVersion"),
                text(root, "kind"),
                clusters(entries(root, "clusters")),
                users(entries(root, "users")),
                contexts(entries(root, "contexts")),
                text(root, "current-context"),
                preferences(root.get("preferences")),
                null);
    }

    private static KubeConfig.Cluster cluster(JsonNode n) throws IOException {
        if (isAbsent(n)) {
            return null;
        }
        requireObject(n, "cluster");
        return new KubeConfig.Cluster(
                text(n, "server"),
                text(n, "certificate-authority"),
                text(n, "certificate-authority-data"),
                bool(n, "insecure-skip-tls-verify"));
    }

    private static KubeConfig.User user(JsonNode n) throws IOException {
        if (isAbsent(n)) {
            return null;
        }
        requireObject(n, "user");
        return new KubeConfig.User(text(n, "token"), text(n, "tokenFile"));
    }

    private static KubeConfig.Context context(JsonNode n) throws IOException {
        if (isAbsent(n)) {
            return null;
        }
        requireObject(n, "context");
        return new KubeConfig.Context(text(n, "cluster"), text(n, "user"), text(n, "namespace"));
    }

    // The three lists are mapped by plain loops, not by a lambda per list: each lambda's first call
    // links an invokedynamic call site, which a short-lived CLI pays for at every run.

    private static List<KubeConfig.NamedCluster> clusters(List<JsonNode> entries) throws IOException {
        if (entries == null) {
            return null;
        }
        List<KubeConfig.NamedCluster> out = new ArrayList<>(entries.size());
        for (JsonNode n : entries) {
            out.add(n == null ? null : new KubeConfig.NamedCluster(text(n, "name"), cluster(n.get("cluster"))));
        }
        return out;
    }

    private static List<KubeConfig.NamedUser> users(List<JsonNode> entries) throws IOException {
        if (entries == null) {
            return null;
        }
        List<KubeConfig.NamedUser> out = new ArrayList<>(entries.size());
        for (JsonNode n : entries) {
            out.add(n == null ? null : new KubeConfig.NamedUser(text(n, "name"), user(n.get("user"))));
        }
        return out;
    }

    private static List<KubeConfig.NamedContext> contexts(List<JsonNode> entries) throws IOException {
        if (entries == null) {
            return null;
        }
        List<KubeConfig.NamedContext> out = new ArrayList<>(entries.size());
        for (JsonNode n : entries) {
            out.add(n == null ? null : new KubeConfig.NamedContext(text(n, "name"), context(n.get("context"))));
        }
        return out;
    }

    /** The entries of list {@code field} (null items kept as null), each checked to be a map; null if absent. */
    private static List<JsonNode> entries(JsonNode parent, String field) throws IOException {
        JsonNode n = parent.get(field);
        if (isAbsent(n)) {
            return null;
        }
        if (!n.isArray()) {
            throw new IOException(field + ": expected a list, got " + describe(n));
        }
        List<JsonNode> out = new ArrayList<>(n.size());
        for (JsonNode item : n) {
            if (item.isNull()) {
                out.add(null);
            } else if (item.isObject()) {
                out.add(item);
            } else {
                // the message is built only here: a concatenation run on every read links its call site
                requireObject(item, field + " entry");
            }
        }
        return out;
    }

    private static String text(JsonNode parent, String field) throws IOException {
        JsonNode n = parent.get(field);
        if (isAbsent(n)) {
            return null;
        }
        if (!n.isValueNode()) {
            throw new IOException(field + ": expected a string, got " + describe(n));
        }
        return n.asText();
    }

    private static Boolean bool(JsonNode parent, String field) throws IOException {
        JsonNode n = parent.get(field);
        if (isAbsent(n)) {
            return null;
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        String s = n.isTextual() ? n.textValue().toLowerCase(Locale.ROOT) : "";
        if (s.equals("true") || s.equals("false")) {
            return Boolean.valueOf(s);
        }
        throw new IOException(field + ": expected true or false, got " + describe(n));
    }

    private static Map<String, Object> preferences(JsonNode n) throws IOException {
        if (isAbsent(n)) {
            return null;
        }
        requireObject(n, "preferences");
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) plain(n);
        return map;
    }

    /** A YAML tree as plain maps, lists, strings, numbers and booleans (what binding to Object gives). */
    private static Object plain(JsonNode n) {
        if (n.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            n.fields().forEachRemaining(e -> m.put(e.getKey(), plain(e.getValue())));
            return m;
        }
        if (n.isArray()) {
            List<Object> l = new ArrayList<>(n.size());
            n.forEach(item -> l.add(plain(item)));
            return l;
        }
        if (n.isNull() || n.isMissingNode()) {
            return null;
        }
        if (n.isNumber()) {
            return n.numberValue();
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        return n.asText();
    }

    private static void requireObject(JsonNode n, String what) throws IOException {
        if (!n.isObject()) {
            throw new IOException(what + ": expected a map, got " + describe(n));
        }
    }

    private static boolean isAbsent(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode();
    }

    private static String describe(JsonNode n) {
        return n.isObject() ? "a map" : n.isArray() ? "a list" : "'" + n.asText() + "'";
    }
}
