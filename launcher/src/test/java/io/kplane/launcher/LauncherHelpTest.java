package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** {@code kplane SUBCOMMAND --help} prints that subcommand's usage and exits 0, as {@code kplane --help} does. */
class LauncherHelpTest {

    @ParameterizedTest
    @ValueSource(strings = {"up", "down", "status", "logs"})
    void everySubcommandAnswersHelp(String subcommand) {
        CommandLine cl = LauncherMain.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));

        int exit = cl.execute(subcommand, "--help");

        assertThat(exit).isZero();
        assertThat(err.toString()).isEmpty();
        assertThat(out.toString()).startsWith("Usage: kplane " + subcommand).contains("--help");
    }
}
