package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;

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

    /**
     * picocli registers no converter for {@code java.sql}/{@code java.time} types in kubectl-lite (start-up
     * time, {@link PicocliConverters}), so no option or parameter of any command may have such a type.
     */
    @Test
    void noOptionNeedsAConverterThatIsExcluded() {
        List<String> offending = new ArrayList<>();
        collectExcludedTypes(KubectlLite.commandLine(), offending);
        assertThat(offending).isEmpty();
        assertThat(System.getProperty(PicocliConverters.PROPERTY)).isEqualTo(PicocliConverters.EXCLUDED);
        assertThat(PicocliConverters.excluded(java.time.Duration.class)).isTrue();
        assertThat(PicocliConverters.excluded(java.sql.Timestamp.class)).isTrue();
        assertThat(PicocliConverters.excluded(String.class)).isFalse();
    }

    private static void collectExcludedTypes(CommandLine command, List<String> into) {
        List<ArgSpec> args = new ArrayList<>(command.getCommandSpec().options());
        args.addAll(command.getCommandSpec().positionalParameters());
        for (ArgSpec arg : args) {
            List<Class<?>> types = new ArrayList<>(List.of(arg.auxiliaryTypes()));
            types.add(arg.type());
            for (Class<?> type : types) {
                if (PicocliConverters.excluded(type)) {
                    into.add(command.getCommandSpec().qualifiedName() + " " + arg.paramLabel() + ": " + type);
                }
            }
        }
        for (CommandLine sub : command.getSubcommands().values()) {
            collectExcludedTypes(sub, into);
        }
    }

    /** The collection path is appended by hand (no string concatenation on get's path): same as the API's. */
    @Test
    void collectionPathsAreTheResourceTypesOwn() {
        for (io.kplane.api.ResourceType type : io.kplane.api.ResourceTypes.ALL) {
            String prefix = type.groupVersionPath() + (type.namespaced() ? "/namespaces/ns" : "");
            assertThat(ResourceRef.collectionPath(type, "ns")).isEqualTo(prefix + "/" + type.resource());
            assertThat(ResourceRef.collectionPath(type, null))
                    .isEqualTo(type.groupVersionPath() + "/" + type.resource());
        }
    }

    @Test
    void theArchiveTrainingRunNeedsNoApiServer() {
        assertThatCode(() -> CdsTraining.main(new String[0])).doesNotThrowAnyException();
    }
}
