package io.kplane.kubectl.cmd;

import io.kplane.kubectl.CliException;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code completion bash}: a bash completion script (source it: {@code source <(./kubectl-lite completion bash)}). */
@Command(name = "completion", description = "Output shell completion code for bash.")
public final class CompletionCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SHELL", description = "bash")
    String shell;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (!"bash".equals(shell)) {
            throw new CliException("error: unsupported shell type \"" + shell + "\" (only bash)");
        }
        CommandLine root = spec.commandLine();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        spec.commandLine().getOut().print(AutoComplete.bash("kubectl-lite", root));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
