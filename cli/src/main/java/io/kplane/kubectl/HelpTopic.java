package io.kplane.kubectl;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * {@code kubectl-lite help [COMMAND [SUBCOMMAND]]}, as kubectl's {@code help} command (cobra's): with no
 * topic it prints the root help, with one it prints that command's usage exactly as {@code COMMAND --help}
 * does (arguments past the deepest command found are ignored, connection options are skipped), and an
 * unknown topic prints {@code Unknown help topic [`x`]} and the root help on stderr; the exit code is 0
 * in each case, as kubectl's. It is not a picocli subcommand so that the recorded root help and
 * completion script keep kubectl's list of commands, which does not show {@code help} either.
 */
final class HelpTopic {
    static final String NAME = "help";

    private HelpTopic() {}

    /** Whether the first word of {@code args} that is not an option (or an option's value) is {@code help}. */
    static boolean requested(String[] args) {
        List<String> words = words(args);
        return !words.isEmpty() && words.get(0).equals(NAME);
    }

    /** Prints the topic {@code args} asks for from {@code root} (a command line holding every command). */
    static int print(String[] args, CommandLine root, PrintWriter out, PrintWriter err) {
        List<String> topic = words(args);
        topic = topic.subList(1, topic.size());
        CommandLine command = root;
        for (String word : topic) {
            CommandLine sub = command.getSubcommands().get(word);
            if (sub == null) {
                break;
            }
            command = sub;
        }
        if (command == root && !topic.isEmpty()) {
            StringBuilder unknown = new StringBuilder("Unknown help topic [");
            for (int i = 0; i < topic.size(); i++) {
                unknown.append(i == 0 ? "" : " ")
                        .append('`')
                        .append(topic.get(i))
                        .append('`');
            }
            err.println(unknown.append(']'));
            root.usage(err, root.getColorScheme());
        } else {
            command.usage(out, command.getColorScheme());
        }
        out.flush();
        err.flush();
        return 0;
    }

    /** The words of a command line that are neither options nor the values of the connection options. */
    private static List<String> words(String[] args) {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (KubectlLite.OPTIONS_WITH_VALUES.contains(a)) {
                i++;
            } else if (!a.startsWith("-")) {
                words.add(a);
            }
        }
        return words;
    }
}
