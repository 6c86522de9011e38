package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Help output: every command prints its usage for {@code -h}/{@code --help} and exits 0 (kubectl does;
 * {@code get --help} used to fail with "Missing required parameter"), and the texts of the root help,
 * every command's usage and the bash completion script stay exactly as recorded in
 * {@code src/test/resources/help/} (whatever builds the command models: annotations or code). After a
 * deliberate change of an option or description, regenerate the files from the new output.
 */
class HelpTest {
    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = KubectlLite.run(
                args,
                new PrintWriter(out),
                new PrintWriter(err),
                new KubectlLite.Environment(null, Path.of("/nonexistent"), new ByteArrayInputStream(new byte[0])));
        return new Result(code, out.toString(), err.toString());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "get --help",
                "get -h",
                "get pods --help",
                "-n ns get --help",
                "describe --help",
                "apply --help",
                "create --help",
                "create job --help",
                "delete --help",
                "logs --help",
                "patch --help",
                "wait --help",
                "suspend --help",
                "resume --help",
                "clock --help",
                "clock set --help",
                "cronjob next --help",
                "why --help",
                "version --help",
                "api-resources --help",
                "cluster-info --help",
                "completion --help"
            })
    void everyCommandPrintsItsUsageForHelpAndExitsZero(String line) {
        Result r = run(line.split(" "));
        String command = line.replace("-n ns ", "")
                .replace(" pods", "")
                .replace(" --help", "")
                .replace(" -h", "");
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("Usage: kubectl-lite " + command + " ").contains("-h, --help");
    }

    @Test
    void parameterErrorsReadAsBefore() {
        assertThat(run("get"))
                .isEqualTo(new Result(
                        1,
                        "",
                        "error: Missing required parameter: 'TYPE[.GROUP] [NAME...] | TYPE/NAME...'\n"
                                + "See 'kubectl-lite get --help' for usage.\n"));
        assertThat(run("get", "pods", "--bogus"))
                .isEqualTo(new Result(
                        1, "", "error: Unknown option: '--bogus'\nSee 'kubectl-lite get --help' for usage.\n"));
        assertThat(run("get", "pods", "-o"))
                .isEqualTo(new Result(
                        1,
                        "",
                        "error: Missing required parameter for option '--output' (<output>)\n"
                                + "See 'kubectl-lite get --help' for usage.\n"));
        assertThat(run("--bogus"))
                .isEqualTo(
                        new Result(1, "", "error: Unknown option: '--bogus'\nSee 'kubectl-lite --help' for usage.\n"));
    }

    @Test
    void theRootHelpIsUnchanged() throws IOException {
        assertThat(run("--help")).isEqualTo(new Result(0, resource("root-help.txt"), ""));
        assertThat(run("-h")).isEqualTo(new Result(0, resource("root-help.txt"), ""));
    }

    @Test
    void helpWithoutATopicPrintsTheRootHelp() throws IOException {
        assertThat(run("help")).isEqualTo(new Result(0, resource("root-help.txt"), ""));
        assertThat(run("--kubeconfig", "/nonexistent", "help")).isEqualTo(new Result(0, resource("root-help.txt"), ""));
    }

    /** kubectl's {@code help get} prints what {@code get --help} prints; it said "Unmatched argument" before. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "help get|get --help",
                "help get pods|get --help",
                "-n ns help get|get --help",
                "help --kubeconfig /nonexistent describe|describe --help",
                "help create job|create job --help",
                "help clock set|clock set --help",
                "help logs|logs --help",
                "help completion|completion --help"
            })
    void helpWithACommandPrintsThatCommandsUsage(String lines) {
        String[] both = lines.split("\\|");
        Result help = run(both[0].split(" "));
        assertThat(help.code()).isZero();
        assertThat(help.out()).startsWith("Usage: kubectl-lite ");
        assertThat(help).isEqualTo(run(both[1].split(" ")));
    }

    @Test
    void helpWithAnUnknownTopicSaysSoAndPrintsTheRootHelpLikeKubectl() throws IOException {
        assertThat(run("help", "frobnicate"))
                .isEqualTo(new Result(0, "", "Unknown help topic [`frobnicate`]\n" + resource("root-help.txt")));
        assertThat(run("help", "frob", "nicate"))
                .isEqualTo(new Result(0, "", "Unknown help topic [`frob` `nicate`]\n" + resource("root-help.txt")));
    }

    @Test
    void everyCommandsUsageIsUnchanged() throws IOException {
        StringBuilder all = new StringBuilder();
        usages(KubectlLite.commandLine(), all);
        assertThat(all.toString()).isEqualTo(resource("usage.txt"));
    }

    @Test
    void theCompletionScriptIsUnchanged() throws IOException {
        assertThat(run("completion", "bash")).isEqualTo(new Result(0, resource("completion-bash.txt"), ""));
    }

    private static void usages(CommandLine command, StringBuilder into) {
        into.append("=== ")
                .append(command.getCommandSpec().qualifiedName())
                .append('\n')
                .append(command.getUsageMessage(CommandLine.Help.Ansi.OFF));
        command.getSubcommands().values().forEach(sub -> usages(sub, into));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = HelpTest.class.getResourceAsStream("/help/" + name)) {
            assertThat(in).as("test resource help/" + name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
