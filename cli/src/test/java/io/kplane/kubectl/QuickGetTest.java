package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@link QuickGet} takes a {@code get} line only where picocli's model would parse it to the same values,
 * and leaves every other line to picocli.
 */
class QuickGetTest {
    /** Words of every kind the two parsers could disagree on. */
    private static final String[] WORDS = {
        "get",
        "get",
        "get",
        "pods",
        "jobs",
        "po/x",
        "job",
        "x",
        "describe",
        "help",
        "-n",
        "ns1",
        "--namespace",
        "--server",
        "http://127.0.0.1:1",
        "--token",
        "t",
        "--kubeconfig",
        "/k",
        "-o",
        "wide",
        "--output",
        "yaml",
        "-l",
        "app=x",
        "--selector",
        "--field-selector",
        "status.phase=Running",
        "-A",
        "--all-namespaces",
        "-w",
        "--watch",
        "--watch-only",
        "--no-headers",
        "--request-timeout",
        "30s",
        "-owide",
        "-o=wide",
        "--output=json",
        "-Aw",
        "--",
        "-h",
        "--help",
        "-V",
        "@x",
        "",
        "-x",
        "--nope",
        "-",
        "jsonpath={.items[*].metadata.name}",
        "-1",
        "--server=http://x",
        "true",
        "false",
        "A",
        "--NAMESPACE"
    };

    @Test
    void everyLineItTakesPicocliParsesToTheSameValues() {
        Random random = new Random(18);
        int taken = 0;
        int lines = 30_000;
        for (int n = 0; n < lines; n++) {
            String[] args = new String[1 + random.nextInt(8)];
            for (int i = 0; i < args.length; i++) {
                args[i] = WORDS[random.nextInt(WORDS.length)];
            }
            if (random.nextBoolean()) { // shaped like the lines users type: options, get, words and options
                args[Math.min(random.nextInt(4), args.length - 1)] = "get";
            }
            QuickGet quick = QuickGet.parse(args);
            if (quick != null) {
                taken++;
                assertThat(picocli(args)).as(String.join(" ", args)).isEqualTo(values(quick));
            }
        }
        assertThat(taken).as("lines taken of %d", lines).isGreaterThan(lines / 50);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "get pods",
                "--kubeconfig /k get pods",
                "--server http://x --token t -n a get pods -n b",
                "get pods -o wide -A --no-headers",
                "get po/x job x -l app=x --field-selector a=b",
                "get pods -w --watch-only --request-timeout 1s",
                "-n describe get get -n get"
            })
    void theLinesUsersTypeAreTaken(String line) {
        String[] args = line.split(" ");
        QuickGet quick = QuickGet.parse(args);
        assertThat(quick).isNotNull();
        assertThat(values(quick)).isEqualTo(picocli(args));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "get",
                "get -o wide",
                "get pods -owide",
                "get pods --output=wide",
                "get pods -o",
                "get pods -o -A",
                "get pods -A -A",
                "get pods --all-namespaces -A",
                "get pods -h",
                "get pods --help",
                "get @args",
                "get pods -- -x",
                "pods get",
                "--server=http://x get pods",
                "-V get pods",
                "describe pod x",
                "help get",
                "get pods --nope",
                "-n get get pods"
            })
    void everyOtherLineIsLeftToPicocli(String line) {
        assertThat(QuickGet.parse(line.split(" "))).isNull();
    }

    @Test
    void anEmptyWordIsLeftToPicocli() {
        assertThat(QuickGet.parse(new String[] {"get", ""})).isNull();
        assertThat(QuickGet.parse(new String[] {"get", "pods", "-n", ""})).isNull();
        assertThat(QuickGet.parse(new String[0])).isNull();
    }

    /** What picocli's models hold after parsing {@code args}, or "error" when picocli rejects the line. */
    private static String picocli(String[] args) {
        CommandLine root = KubectlLite.commandLine(args);
        try {
            root.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            return "error";
        }
        CommandLine get = root.getSubcommands().get("get");
        if (get == null || !root.getParseResult().hasSubcommand()) {
            return "error";
        }
        CommandSpec getSpec = get.getCommandSpec();
        List<String> words = getSpec.positionalParameters().get(0).getValue();
        return describe(given(root.getCommandSpec()), given(getSpec), words);
    }

    private static Map<String, String> given(CommandSpec spec) {
        Map<String, String> values = new LinkedHashMap<>();
        for (OptionSpec option : spec.options()) {
            Object value = option.getValue();
            if (value != null && !Boolean.FALSE.equals(value)) {
                values.put(option.longestName(), String.valueOf(value));
            }
        }
        return values;
    }

    private static String values(QuickGet quick) {
        return describe(quick.rootOptions(), quick.getOptions(), quick.words());
    }

    private static String describe(Map<String, String> root, Map<String, String> get, List<String> words) {
        return "root " + new java.util.TreeMap<>(root) + " get " + new java.util.TreeMap<>(get) + " words "
                + new ArrayList<>(words);
    }
}
