package io.kplane.controllers.namespace;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.OptionSpecs;
import picocli.CommandLine.Model.CommandSpec;

/** {@code namespace-controller}: runs the namespace controller as its own process. */
public final class NamespaceControllerMain extends ComponentMain {
    public NamespaceControllerMain() {
        super("namespace-controller", "Empties namespaces being deleted, then removes their kubernetes finalizer.");
    }

    @Override
    protected void addOptions(CommandSpec spec) {
        spec.addOption(OptionSpecs.duration(
                "--recheck-interval",
                "1s",
                "recheckInterval",
                "How soon a namespace whose content is still going is looked at again (default: ${DEFAULT-VALUE})."));
    }

    @Override
    protected ControllerComponent component() {
        return new NamespaceControllerComponent(value("--recheck-interval"));
    }

    public static void main(String[] args) {
        exit(new NamespaceControllerMain(), args);
    }
}
