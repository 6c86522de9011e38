package io.kplane.controllers.namespace;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code namespace-controller}: runs the namespace controller as its own process. */
@Command(
        name = "namespace-controller",
        mixinStandardHelpOptions = true,
        description = "Empties namespaces being deleted, then removes their kubernetes finalizer.")
public final class NamespaceControllerMain extends ComponentMain {
    @Option(
            names = "--recheck-interval",
            defaultValue = "1s",
            converter = io.kplane.controllers.runtime.DurationConverter.class,
            description =
                    "How soon a namespace whose content is still going is looked at again (default: ${DEFAULT-VALUE}).")
    Duration recheckInterval;

    @Override
    protected ControllerComponent component() {
        return new NamespaceControllerComponent(recheckInterval);
    }

    public static void main(String[] args) {
        exit(new NamespaceControllerMain(), args);
    }
}
