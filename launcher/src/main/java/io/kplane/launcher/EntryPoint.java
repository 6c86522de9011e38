package io.kplane.launcher;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates {@code deploy/bin/kplane-component}, the script that is also the container image's entry
 * point: the launcher starts every component through it, so the local stack and the image run
 * components with the same commands.
 */
final class EntryPoint {
    private EntryPoint() {}

    static Path script(Path home) {
        Path script = home.resolve("deploy").resolve("bin").resolve("kplane-component");
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException("cannot find the component entry point " + script
                    + " (run ./kplane from the kplane checkout, or set KPLANE_HOME)");
        }
        return script;
    }

    static Path home() {
        String env = System.getenv("KPLANE_HOME");
        return Path.of(env != null && !env.isBlank() ? env : ".")
                .toAbsolutePath()
                .normalize();
    }
}
