package io.kplane.api.selector;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.ResourceType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A parsed field selector ({@code metadata.name=x,status.phase!=Running}) bound to the resource it
 * filters: only the fields Kubernetes supports for that resource are accepted. Matches against an
 * object's JSON tree.
 */
public record FieldQuery(ResourceType type, List<FieldRequirement> requirements) {

    /**
     * Parses and checks the selector for {@code type}.
     *
     * @throws SelectorException with Kubernetes' messages, e.g. {@code field label not supported: spec.foo}
     */
    public static FieldQuery parse(String selector, ResourceType type) {
        List<FieldRequirement> reqs = parseTerms(selector);
        for (FieldRequirement r : reqs) {
            if (!SelectableFields.supports(type, r.field())) {
                throw new SelectorException("field label not supported: " + r.field());
            }
        }
        return new FieldQuery(type, List.copyOf(reqs));
    }

    public static FieldQuery everything(ResourceType type) {
        return new FieldQuery(type, List.of());
    }

    public boolean isEverything() {
        return requirements.isEmpty();
    }

    public boolean matches(JsonNode object) {
        for (FieldRequirement r : requirements) {
            if (!r.matches(SelectableFields.value(type, r.field(), object))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The value the selector requires for {@code field} with {@code =}, if any: lets the server
     * turn {@code metadata.name=x} into a direct read.
     */
    public Optional<String> requiredValue(String field) {
        return requirements.stream()
                .filter(r -> r.field().equals(field) && !r.negated())
                .map(FieldRequirement::value)
                .findFirst();
    }

    @Override
    public String toString() {
        return requirements.stream().map(FieldRequirement::toString).collect(Collectors.joining(","));
    }

    /** Splits on unescaped commas; each term splits on its first unescaped {@code !=}, {@code ==} or {@code =}. */
    static List<FieldRequirement> parseTerms(String selector) {
        List<FieldRequirement> reqs = new ArrayList<>();
        if (selector == null || selector.isBlank()) {
            return reqs;
        }
        for (String term : splitUnescaped(selector, ',')) {
            if (term.isEmpty()) {
                continue;
            }
            reqs.add(parseTerm(term));
        }
        return reqs;
    }

    private static FieldRequirement parseTerm(String term) {
        for (int i = 0; i < term.length(); i++) {
            char c = term.charAt(i);
            if (c == '\\') {
                i++;
                continue;
            }
            if (c == '!' && i + 1 < term.length() && term.charAt(i + 1) == '=') {
                return term(term, i, 2, true);
            }
            if (c == '=' && i + 1 < term.length() && term.charAt(i + 1) == '=') {
                return term(term, i, 2, false);
            }
            if (c == '=') {
                return term(term, i, 1, false);
            }
        }
        throw new SelectorException("invalid selector: '" + term + "'; can't understand '" + term + "'");
    }

    private static FieldRequirement term(String term, int at, int opLen, boolean negated) {
        String field = term.substring(0, at).trim();
        String value = unescape(term.substring(at + opLen), term);
        if (field.isEmpty()) {
            throw new SelectorException("invalid selector: '" + term + "'; can't understand '" + term + "'");
        }
        return new FieldRequirement(unescape(field, term), negated, value);
    }

    private static List<String> splitUnescaped(String s, char sep) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                cur.append(c).append(s.charAt(++i));
            } else if (c == sep) {
                parts.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        parts.add(cur.toString());
        return parts;
    }

    private static String unescape(String s, String term) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                if (i + 1 >= s.length() || "\\,=!".indexOf(s.charAt(i + 1)) < 0) {
                    throw new SelectorException("invalid field selector: invalid escape sequence in '" + term + "'");
                }
                b.append(s.charAt(++i));
            } else if (c == '=' || c == ',') {
                throw new SelectorException("invalid field selector: unescaped '" + c + "' in '" + term + "'");
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** Escapes the characters that have meaning in a field selector. */
    static String escape(String s) {
        return s.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=");
    }
}
