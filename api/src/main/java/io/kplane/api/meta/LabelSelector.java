package io.kplane.api.meta;

import java.util.List;
import java.util.Map;

public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions) {

    public static LabelSelector matching(Map<String, String> labels) {
        return new LabelSelector(labels, null);
    }

    /** {@code operator} is In, NotIn, Exists or DoesNotExist. */
    public record Requirement(String key, String operator, List<String> values) {}
}
