package io.kplane.controllers.gc;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code garbage-collector}: runs the garbage collector as its own process. */
@Command(
        name = "garbage-collector",
        mixinStandardHelpOptions = true,
        description = "Deletes objects whose owners are gone; carries out foreground and orphan deletion.")
public final class GarbageCollectorMain implements Callable<Integer> {
    @Mixin
    ControllerOptions options;

    @Override
    public Integer call() throws Exception {
        return ComponentMain.run(new GarbageCollectorComponent(), options);
    }

    public static void main(String[] args) {
        ComponentMain.exit(new GarbageCollectorMain(), args);
    }
}
