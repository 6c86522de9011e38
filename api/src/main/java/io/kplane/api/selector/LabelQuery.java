package io.kplane.api.selector;

import io.kplane.api.meta.LabelSelector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A parsed label selector: all requirements must match (AND). Parse the query-string form with
 * {@link #parse(String)} or convert a {@link LabelSelector} with {@link #from(LabelSelector)}.
 * The empty query matches everything.
 */
public record LabelQuery(List<LabelRequirement> requirements) {

    public static final LabelQuery EVERYTHING = new LabelQuery(List.of());

    public LabelQuery {
        // Kubernetes sorts requirements by key so the string form is canonical.
        requirements = requirements.stream()
                .sorted(Comparator.comparing(LabelRequirement::key))
                .toList();
    }

    /** Parses {@code a=b,c!=d,e in (x,y),f notin (z),g,!h}. {@code null} or blank is everything. */
    public static LabelQuery parse(String selector) {
        if (selector == null || selector.isBlank()) {
            return EVERYTHING;
        }
        return new LabelQuery(new LabelSelectorParser(selector).parse());
    }

    /** Converts matchLabels and matchExpressions. {@code null} selects nothing, as in Kubernetes. */
    public static LabelQuery from(LabelSelector selector) {
        if (selector == null) {
            return null;
        }
        List<LabelRequirement> reqs = new ArrayList<>();
        if (selector.matchLabels() != null) {
            selector.matchLabels()
                    .forEach((k, v) -> reqs.add(LabelRequirement.of(k, LabelRequirement.Operator.EQUALS, List.of(v))));
        }
        if (selector.matchExpressions() != null) {
            for (LabelSelector.Requirement r : selector.matchExpressions()) {
                LabelRequirement.Operator op =
                        switch (r.operator() == null ? "" : r.operator()) {
                            case "In" -> LabelRequirement.Operator.IN;
                            case "NotIn" -> LabelRequirement.Operator.NOT_IN;
                            case "Exists" -> LabelRequirement.Operator.EXISTS;
                            case "DoesNotExist" -> LabelRequirement.Operator.DOES_NOT_EXIST;
                            default -> throw new SelectorException(
                                    "\"" + r.operator() + "\" is not a valid label selector operator");
                        };
                reqs.add(LabelRequirement.of(r.key(), op, r.values() == null ? List.of() : r.values()));
            }
        }
        return new LabelQuery(reqs);
    }

    /** Whether a {@code null} LabelSelector-derived query or this query matches the labels. */
    public boolean matches(Map<String, String> labels) {
        Map<String, String> l = labels == null ? Map.of() : labels;
        for (LabelRequirement r : requirements) {
            if (!r.matches(l)) {
                return false;
            }
        }
        return true;
    }

    public boolean isEverything() {
        return requirements.isEmpty();
    }

    /**
     * Back to a {@link LabelSelector}: equality terms become matchLabels, set terms matchExpressions.
     * {@code !=} and numeric comparisons have no LabelSelector form and become NotIn / are rejected.
     */
    public LabelSelector toLabelSelector() {
        Map<String, String> matchLabels = new LinkedHashMap<>();
        List<LabelSelector.Requirement> exprs = new ArrayList<>();
        for (LabelRequirement r : requirements) {
            switch (r.operator()) {
                case EQUALS, DOUBLE_EQUALS -> matchLabels.put(
                        r.key(), r.values().get(0));
                case IN -> exprs.add(new LabelSelector.Requirement(r.key(), "In", r.values()));
                case NOT_IN, NOT_EQUALS -> exprs.add(new LabelSelector.Requirement(r.key(), "NotIn", r.values()));
                case EXISTS -> exprs.add(new LabelSelector.Requirement(r.key(), "Exists", null));
                case DOES_NOT_EXIST -> exprs.add(new LabelSelector.Requirement(r.key(), "DoesNotExist", null));
                default -> throw new SelectorException(
                        "operator " + r.operator().token + " cannot be converted into a LabelSelector");
            }
        }
        return new LabelSelector(matchLabels.isEmpty() ? null : matchLabels, exprs.isEmpty() ? null : exprs);
    }

    /** The canonical string form, e.g. {@code app=web,tier in (a,b)}; empty for everything. */
    @Override
    public String toString() {
        return requirements.stream().map(LabelRequirement::toString).collect(Collectors.joining(","));
    }
}
