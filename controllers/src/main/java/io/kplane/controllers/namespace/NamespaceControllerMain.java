package io.kplane.controllers.namespace;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerOptions;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code namespace-controller}: runs the namespace controller as its own process. */
@Command(
        name = "namespace-controller",
        mixinStandardHelpOptions = true,
        description = "Empties namespaces being deleted, then removes their kubernetes finalizer.")
public final class NamespaceControllerMain implements Callable<Integer> {
    @Mixin
    ControllerOptions options;

    @Option(
            names = "--recheck-interval",
            defaultValue = "1s",
            converter = io.kplane.controllers.runtime.DurationConverter.class,
            description =
                    "How soon a namespace whose content is still going is looked at again (default: ${DEFAULT-VALUE}).")
    Duration recheckInterval;

    @Override
    public Integer call() throws Exception {
        return ComponentMain.run(new NamespaceControllerComponent(recheckInterval), options);
    }

    public static void main(String[] args) {
        ComponentMain.exit(new NamespaceControllerMain(), args);
    }
}
