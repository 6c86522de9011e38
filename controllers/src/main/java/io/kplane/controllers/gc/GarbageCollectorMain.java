package io.kplane.controllers.gc;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;

/** {@code garbage-collector}: runs the garbage collector as its own process. */
public final class GarbageCollectorMain extends ComponentMain {
    public GarbageCollectorMain() {
        super(
                "garbage-collector",
                "Deletes objects whose owners are gone; carries out foreground and orphan deletion.");
    }

    @Override
    protected ControllerComponent component() {
        return new GarbageCollectorComponent();
    }

    public static void main(String[] args) {
        exit(new GarbageCollectorMain(), args);
    }
}
