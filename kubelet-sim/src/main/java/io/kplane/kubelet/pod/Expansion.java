package io.kplane.kubelet.pod;

import java.util.function.Function;

/**
 * Kubernetes' {@code $(VAR)} expansion for env values, command and args: a defined variable is
 * replaced, an undefined one is left as written, {@code $$} is an escaped {@code $}, and any other
 * {@code $} stays as it is.
 */
public final class Expansion {
    private Expansion() {}

    /** @param lookup the value of a variable, or null when it is not defined */
    public static String expand(String input, Function<String, String> lookup) {
        if (input == null || input.indexOf('$') < 0) {
            return input;
        }
        StringBuilder out = new StringBuilder(input.length());
        int i = 0;
        while (i < input.length()) {
            char c = input.charAt(i);
            if (c != '$' || i + 1 == input.length()) {
                out.append(c);
                i++;
                continue;
            }
            char next = input.charAt(i + 1);
            if (next == '$') {
                out.append('$');
                i += 2;
            } else if (next == '(') {
                int close = input.indexOf(')', i + 2);
                if (close < 0) {
                    out.append("$(");
                    i += 2;
                } else {
                    String name = input.substring(i + 2, close);
                    String value = lookup.apply(name);
                    out.append(value != null ? value : "$(" + name + ")");
                    i = close + 1;
                }
            } else {
                out.append('$').append(next);
                i += 2;
            }
        }
        return out.toString();
    }
}
