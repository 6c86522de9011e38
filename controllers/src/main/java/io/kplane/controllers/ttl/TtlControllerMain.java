package io.kplane.controllers.ttl;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;

/** {@code ttl-controller}: runs the TTL-after-finished controller as its own process. */
public final class TtlControllerMain extends ComponentMain {
    public TtlControllerMain() {
        super("ttl-controller", "Deletes finished Jobs ttlSecondsAfterFinished seconds after they finished.");
    }

    @Override
    protected ControllerComponent component() {
        return new TtlControllerComponent();
    }

    public static void main(String[] args) {
        exit(new TtlControllerMain(), args);
    }
}
