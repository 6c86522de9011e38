package io.kplane.api.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Kubernetes' name, label and identifier checks ({@code k8s.io/apimachinery/pkg/util/validation}).
 * Each returns the list of problems in Kubernetes' wording; empty means valid.
 */
public final class NameRules {
    public static final int DNS1123_LABEL_MAX = 63;
    public static final int DNS1123_SUBDOMAIN_MAX = 253;
    public static final int LABEL_VALUE_MAX = 63;
    public static final int QUALIFIED_NAME_MAX = 63;

    private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
    private static final String ENV_VAR_NAME_FMT = "[-._a-zA-Z][-._a-zA-Z0-9]*";

    private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
    private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);
    private static final Pattern ENV_VAR_NAME = Pattern.compile(ENV_VAR_NAME_FMT);

    private NameRules() {}

    public static List<String> dns1123Label(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > DNS1123_LABEL_MAX) {
            errs.add(maxLen(DNS1123_LABEL_MAX));
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            errs.add(regexError(
                    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters "
                            + "or '-', and must start and end with an alphanumeric character",
                    DNS1123_LABEL_FMT,
                    "my-name",
                    "123-abc"));
        }
        return errs;
    }

    public static List<String> dns1123Subdomain(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > DNS1123_SUBDOMAIN_MAX) {
            errs.add(maxLen(DNS1123_SUBDOMAIN_MAX));
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errs.add(regexError(
                    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                            + "characters, '-' or '.', and must start and end with an alphanumeric character",
                    DNS1123_SUBDOMAIN_FMT,
                    "example.com"));
        }
        return errs;
    }

    /** A label key or annotation key: an optional DNS subdomain prefix and '/', then a name of at most 63. */
    public static List<String> qualifiedName(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    errs.add("prefix part must be non-empty");
                } else {
                    for (String msg : dns1123Subdomain(prefix)) {
                        errs.add("prefix part " + msg);
                    }
                }
            }
            default -> {
                errs.add(regexError(
                                "a qualified name must consist of alphanumeric characters, '-', '_' or '.', "
                                        + "and must start and end with an alphanumeric character",
                                QUALIFIED_NAME_FMT,
                                "MyName",
                                "my.name",
                                "123-abc")
                        + " with an optional DNS subdomain prefix and '/' "
                        + "(e.g. 'example.com/MyName')");
                return errs;
            }
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (name.length() > QUALIFIED_NAME_MAX) {
            errs.add("name part " + maxLen(QUALIFIED_NAME_MAX));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errs.add("name part "
                    + regexError(
                            "must consist of alphanumeric characters, '-', '_' or '.', and "
                                    + "must start and end with an alphanumeric character",
                            QUALIFIED_NAME_FMT,
                            "MyName",
                            "my.name",
                            "123-abc"));
        }
        return errs;
    }

    public static List<String> labelValue(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > LABEL_VALUE_MAX) {
            errs.add(maxLen(LABEL_VALUE_MAX));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errs.add(regexError(
                    "a valid label must be an empty string or consist of alphanumeric characters, "
                            + "'-', '_' or '.', and must start and end with an alphanumeric character",
                    LABEL_VALUE_FMT,
                    "MyValue",
                    "my_value",
                    "12345"));
        }
        return errs;
    }

    public static List<String> envVarName(String value) {
        List<String> errs = new ArrayList<>();
        if (!ENV_VAR_NAME.matcher(value).matches()) {
            errs.add(regexError(
                    "a valid environment variable name must consist of alphabetic characters, "
                            + "digits, '_', '-', or '.', and must not start with a digit",
                    ENV_VAR_NAME_FMT,
                    "my.env-name",
                    "MY_ENV.NAME",
                    "MyEnvName1"));
        }
        errs.addAll(relaxedPathSegment(value));
        return errs;
    }

    private static final String CONFIG_MAP_KEY_FMT = "[-._a-zA-Z0-9]+";
    private static final Pattern CONFIG_MAP_KEY = Pattern.compile(CONFIG_MAP_KEY_FMT);

    /** A key of a ConfigMap's or Secret's data ({@code IsConfigMapKey}). */
    public static List<String> configMapKey(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > DNS1123_SUBDOMAIN_MAX) {
            errs.add(maxLen(DNS1123_SUBDOMAIN_MAX));
        }
        if (!CONFIG_MAP_KEY.matcher(value).matches()) {
            errs.add(regexError(
                    "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
                    CONFIG_MAP_KEY_FMT,
                    "key.name",
                    "KEY_NAME",
                    "key_name"));
        }
        errs.addAll(relaxedPathSegment(value));
        return errs;
    }

    /** Names that must be one URL path segment (RBAC objects: {@code path.IsValidPathSegmentName}). */
    public static List<String> pathSegmentName(String value, boolean prefix) {
        List<String> errs = new ArrayList<>();
        if (!prefix && (value.equals(".") || value.equals(".."))) {
            errs.add("may not be '" + value + "'");
        }
        for (String bad : List.of("/", "%")) {
            if (value.contains(bad)) {
                errs.add("may not contain '" + bad + "'");
            }
        }
        return errs;
    }

    private static List<String> relaxedPathSegment(String value) {
        if (value.equals(".")) {
            return List.of("must not be '.'");
        }
        if (value.equals("..")) {
            return List.of("must not be '..'");
        }
        if (value.startsWith("..")) {
            return List.of("must not start with '..'");
        }
        return List.of();
    }

    /**
     * A name or generateName of an object. For generateName ({@code prefix=true}) a trailing '-' is
     * ignored, because the random suffix follows it.
     */
    public static List<String> objectName(String value, boolean prefix, boolean labelOnly) {
        String v = prefix && value.endsWith("-") ? value.substring(0, value.length() - 1) : value;
        return labelOnly ? dns1123Label(v) : dns1123Subdomain(v);
    }

    static String maxLen(int max) {
        return "must be no more than " + max + " characters";
    }

    private static String regexError(String msg, String fmt, String... examples) {
        StringBuilder s = new StringBuilder(msg).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                s.append(" or ");
            }
            s.append('\'').append(examples[i]).append("', ");
        }
        return s.append("regex used for validation is '")
                .append(fmt)
                .append("')")
                .toString();
    }
}
