package io.kplane.controllers.gc;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import picocli.CommandLine.Command;

/** {@code garbage-collector}: runs the garbage collector as its own process. */
@Command(
        name = "garbage-collector",
        mixinStandardHelpOptions = true,
        description = "Deletes objects whose owners are gone; carries out foreground and orphan deletion.")
public final class GarbageCollectorMain extends ComponentMain {
    @Override
    protected ControllerComponent component() {
        return new GarbageCollectorComponent();
    }

    public static void main(String[] args) {
        exit(new GarbageCollectorMain(), args);
    }
}
