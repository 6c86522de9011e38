package io.kplane.api.selector;

import io.kplane.api.admission.NameRules;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One term of a label selector: {@code key op values}. Values are kept sorted, as Kubernetes does,
 * so that the string form is canonical.
 */
public record LabelRequirement(String key, Operator operator, List<String> values) {

    public enum Operator {
        EQUALS("="),
        DOUBLE_EQUALS("=="),
        NOT_EQUALS("!="),
        IN("in"),
        NOT_IN("notin"),
        EXISTS(""),
        DOES_NOT_EXIST("!"),
        GREATER_THAN(">"),
        LESS_THAN("<");

        final String token;

        Operator(String token) {
            this.token = token;
        }
    }

    public LabelRequirement {
        values = List.copyOf(new TreeSet<>(values));
    }

    /** Builds a requirement, checking the key and values as Kubernetes' {@code labels.NewRequirement} does. */
    public static LabelRequirement of(String key, Operator op, List<String> values) {
        List<String> keyErrs = NameRules.qualifiedName(key);
        if (!keyErrs.isEmpty()) {
            throw new SelectorException("invalid label key \"" + key + "\": " + String.join("; ", keyErrs));
        }
        switch (op) {
            case IN, NOT_IN -> {
                if (values.isEmpty()) {
                    throw new SelectorException("for 'in', 'notin' operators, values set can't be empty");
                }
            }
            case EQUALS, DOUBLE_EQUALS, NOT_EQUALS -> {
                if (values.size() != 1) {
                    throw new SelectorException("exact-match compatibility requires one single value");
                }
            }
            case EXISTS, DOES_NOT_EXIST -> {
                if (!values.isEmpty()) {
                    throw new SelectorException("values set must be empty for exists and does not exist");
                }
            }
            case GREATER_THAN, LESS_THAN -> {
                if (values.size() != 1) {
                    throw new SelectorException("for 'Gt', 'Lt' operators, exactly one value is required");
                }
                try {
                    Long.parseLong(values.get(0));
                } catch (NumberFormatException e) {
                    throw new SelectorException("for 'Gt', 'Lt' operators, the value must be an integer");
                }
            }
        }
        if (op != Operator.GREATER_THAN && op != Operator.LESS_THAN) {
            for (String v : values) {
                List<String> errs = NameRules.labelValue(v);
                if (!errs.isEmpty()) {
                    throw new SelectorException(
                            "invalid label value: \"" + v + "\": at key: \"" + key + "\": " + String.join("; ", errs));
                }
            }
        }
        return new LabelRequirement(key, op, values);
    }

    public boolean matches(Map<String, String> labels) {
        boolean has = labels.containsKey(key);
        String actual = labels.get(key);
        return switch (operator) {
            case EQUALS, DOUBLE_EQUALS, IN -> has && values.contains(actual);
            case NOT_EQUALS, NOT_IN -> !has || !values.contains(actual);
            case EXISTS -> has;
            case DOES_NOT_EXIST -> !has;
            case GREATER_THAN, LESS_THAN -> has && compare(actual);
        };
    }

    private boolean compare(String actual) {
        long have;
        try {
            have = Long.parseLong(actual);
        } catch (NumberFormatException e) {
            return false;
        }
        long want = Long.parseLong(values.get(0));
        return operator == Operator.GREATER_THAN ? have > want : have < want;
    }

    /** The string form: {@code a=b}, {@code a in (x,y)}, {@code !a}. */
    @Override
    public String toString() {
        return switch (operator) {
            case EXISTS -> key;
            case DOES_NOT_EXIST -> "!" + key;
            case IN, NOT_IN -> key + " " + operator.token + " (" + String.join(",", values) + ")";
            default -> key + operator.token + values.get(0);
        };
    }
}
