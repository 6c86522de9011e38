package io.kplane.client.informer;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.LabelSelector;
import java.util.List;
import java.util.Map;

/** Evaluates label selectors against cached objects. */
final class LabelMatcher {
    private LabelMatcher() {}

    static boolean matches(Map<String, String> required, KubeObject obj) {
        Map<String, String> labels = labels(obj);
        for (Map.Entry<String, String> e : required.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** Kubernetes semantics: a null selector matches nothing, an empty one everything. */
    static boolean matches(LabelSelector selector, KubeObject obj) {
        if (selector == null) {
            return false;
        }
        if (selector.matchLabels() != null && !matches(selector.matchLabels(), obj)) {
            return false;
        }
        if (selector.matchExpressions() != null) {
            Map<String, String> labels = labels(obj);
            for (LabelSelector.Requirement r : selector.matchExpressions()) {
                String value = labels.get(r.key());
                List<String> values = r.values() == null ? List.of() : r.values();
                boolean ok =
                        switch (r.operator()) {
                            case "In" -> value != null && values.contains(value);
                            case "NotIn" -> value == null || !values.contains(value);
                            case "Exists" -> labels.containsKey(r.key());
                            case "DoesNotExist" -> !labels.containsKey(r.key());
                            default -> false;
                        };
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }

    private static Map<String, String> labels(KubeObject obj) {
        return obj.metadata() == null ? Map.of() : obj.metadata().labelsOrEmpty();
    }
}
