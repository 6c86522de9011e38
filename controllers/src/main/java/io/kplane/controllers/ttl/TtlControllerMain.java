package io.kplane.controllers.ttl;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import picocli.CommandLine.Command;

/** {@code ttl-controller}: runs the TTL-after-finished controller as its own process. */
@Command(
        name = "ttl-controller",
        mixinStandardHelpOptions = true,
        description = "Deletes finished Jobs ttlSecondsAfterFinished seconds after they finished.")
public final class TtlControllerMain extends ComponentMain {
    @Override
    protected ControllerComponent component() {
        return new TtlControllerComponent();
    }

    public static void main(String[] args) {
        exit(new TtlControllerMain(), args);
    }
}
