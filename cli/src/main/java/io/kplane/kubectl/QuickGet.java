package io.kplane.kubectl;

import io.kplane.kubectl.cmd.GetCommand;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The plainest {@code get} command lines, parsed without picocli: {@code [CONNECTION OPTIONS] get WORD...
 * [OPTIONS]}, every option by its exact name, each value in the next word. Why: building picocli's two
 * command models (the root's and {@code get}'s — each {@code CommandLine} registers its converters, each
 * model compiles its negatable-option regular expressions) and parsing was about a third of a
 * {@code get pods} run's main-thread samples, the largest cost left beside the JVM's own start and the
 * first HTTP request (docs/performance.md, "kubectl-lite").
 *
 * <p>Only lines whose meaning picocli's {@code get} model gives unambiguously are taken; anything else —
 * an unknown or help option, {@code --opt=value} and attached or clustered short forms, a value or word
 * starting with {@code -} or {@code @} (picocli reads {@code @file}s), an empty word, {@code get} as the value
 * of an option before the command (picocli takes it for the command), an option given twice
 * in the same place, {@code --}, no word — returns null and goes through picocli as before, with its
 * messages. {@code QuickGetTest} parses thousands of generated command lines both ways and requires equal
 * values wherever this parser takes one.
 */
final class QuickGet {
    private final Map<String, String> rootOptions;
    private final Map<String, String> getOptions;
    private final List<String> words;

    private QuickGet(Map<String, String> rootOptions, Map<String, String> getOptions, List<String> words) {
        this.rootOptions = rootOptions;
        this.getOptions = getOptions;
        this.words = words;
    }

    /** The parsed line, or null when picocli must parse it. */
    static QuickGet parse(String[] args) {
        Map<String, String> root = new HashMap<>();
        Map<String, String> get = null;
        List<String> words = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (get == null && arg.equals("get")) {
                get = new HashMap<>();
                continue;
            }
            if (get != null && plain(arg)) {
                words.add(arg);
                continue;
            }
            String name = get == null ? connectionOption(arg) : getOption(arg);
            if (name == null) {
                return null;
            }
            String value = "true";
            if (takesValue(name)) {
                if (i + 1 == args.length || !plain(args[i + 1]) || get == null && args[i + 1].equals("get")) {
                    return null; // before the command, picocli takes "get" for the command, not a value
                }
                value = args[++i];
            }
            if ((get == null ? root : get).put(name, value) != null) {
                return null; // picocli rejects an option given twice
            }
        }
        return get == null || words.isEmpty() ? null : new QuickGet(root, get, words);
    }

    /** A word picocli cannot take for an option, a file to expand or the end of options. */
    private static boolean plain(String arg) {
        return !arg.isEmpty() && arg.charAt(0) != '-' && arg.charAt(0) != '@';
    }

    /** The long name of a connection option (the root's options but help and version), else null. */
    private static String connectionOption(String arg) {
        switch (arg) {
            case "--server":
            case "--token":
            case "--kubeconfig":
            case "--namespace":
                return arg;
            case "-n":
                return "--namespace";
            default:
                return null;
        }
    }

    /** The long name of one of {@code get}'s options (its connection options too), else null. */
    private static String getOption(String arg) {
        switch (arg) {
            case "--output":
            case "--selector":
            case "--field-selector":
            case "--all-namespaces":
            case "--watch":
            case "--watch-only":
            case "--no-headers":
            case "--request-timeout":
                return arg;
            case "-o":
                return "--output";
            case "-l":
                return "--selector";
            case "-A":
                return "--all-namespaces";
            case "-w":
                return "--watch";
            default:
                return connectionOption(arg);
        }
    }

    private static boolean takesValue(String name) {
        switch (name) {
            case "--all-namespaces":
            case "--watch":
            case "--watch-only":
            case "--no-headers":
                return false;
            default:
                return true;
        }
    }

    /** The parameters and the values of the options given, as {@code get}'s model would hold them (tests). */
    List<String> words() {
        return words;
    }

    Map<String, String> rootOptions() {
        return rootOptions;
    }

    Map<String, String> getOptions() {
        return getOptions;
    }

    /** Runs the command as picocli's {@code execute} would; returns the exit code. */
    int run(PrintWriter out, PrintWriter err, KubectlLite.Environment env) {
        GetCommand get = GetCommand.parsed(words, getOptions);
        // through BaseCommand: the method is this package's, GetCommand is in another
        ((BaseCommand) get).withoutModel(connection(getOptions).over(connection(rootOptions)), out, err, env);
        int code;
        try {
            code = get.call();
        } catch (Exception e) {
            code = KubectlLite.failed(e, err);
        }
        out.flush();
        err.flush();
        return code;
    }

    private static GlobalOptions connection(Map<String, String> options) {
        GlobalOptions o = new GlobalOptions();
        o.server = options.get("--server");
        o.token = options.get("--token");
        o.kubeconfig = options.get("--kubeconfig");
        o.namespace = options.get("--namespace");
        return o;
    }
}
