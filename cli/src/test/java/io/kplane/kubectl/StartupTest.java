package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The start-up shortcuts: only the named command's model is built, and the CDS training run works offline. */
class StartupTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                "get pods | get",
                "--server http://x get pods | get",
                "--server=http://x logs -f p | logs",
                "-n kube-system describe pod p | describe",
                "--namespace ns --token t --kubeconfig k cluster-info | cluster-info",
                "-A get pods | get",
                "--help | -",
                "frobnicate pods | -",
                "'' | -"
            })
    void theCommandNameIsFoundPastTheConnectionOptions(String line, String expected) {
        String[] args = line.isEmpty() ? new String[0] : line.split(" ");
        assertThat(KubectlLite.commandName(args)).isEqualTo(expected);
    }

    @Test
    void onlyTheNamedCommandIsBuiltButHelpListsThemAll() {
        assertThat(KubectlLite.commandLine(new String[] {"get", "pods"}).getSubcommands())
                .containsOnlyKeys("get");
        assertThat(KubectlLite.commandLine(new String[] {"--help"}).getSubcommands())
                .containsKeys("get", "describe", "apply", "logs", "wait", "cluster-info", "completion");
        assertThat(KubectlLite.commandLine(new String[] {"completion", "bash"}).getSubcommands())
                .hasSizeGreaterThan(10);
    }

    @Test
    void theArchiveTrainingRunNeedsNoApiServer() {
        assertThatCode(() -> CdsTraining.main(new String[0])).doesNotThrowAnyException();
    }
}
