package io.kplane.controllers.ttl;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code ttl-controller}: runs the TTL-after-finished controller as its own process. */
@Command(
        name = "ttl-controller",
        mixinStandardHelpOptions = true,
        description = "Deletes finished Jobs ttlSecondsAfterFinished seconds after they finished.")
public final class TtlControllerMain implements Callable<Integer> {
    @Mixin
    ControllerOptions options;

    @Override
    public Integer call() throws Exception {
        return ComponentMain.run(new TtlControllerComponent(), options);
    }

    public static void main(String[] args) {
        ComponentMain.exit(new TtlControllerMain(), args);
    }
}
