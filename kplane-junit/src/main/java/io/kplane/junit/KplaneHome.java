package io.kplane.junit;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the kplane distribution is: the directory holding {@code deploy/bin/kplane-component} and the
 * packaged jars ({@code launcher/target/kplane-launcher.jar}, ...), i.e. a kplane checkout after
 * {@code ./kplane build} (or {@code mvn package}). Taken from the system property {@code kplane.home},
 * else the environment variable {@code KPLANE_HOME}.
 */
final class KplaneHome {
    private KplaneHome() {}

    static Path locate() {
        String value = System.getProperty("kplane.home");
        if (value == null || value.isBlank()) {
            value = System.getenv("KPLANE_HOME");
        }
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(
                    "@KplaneTest needs the kplane distribution: set the system property "
                            + "kplane.home (or KPLANE_HOME) to a kplane checkout whose jars are built (./kplane up builds them)");
        }
        Path home = Path.of(value).toAbsolutePath().normalize();
        if (!Files.isRegularFile(launcherJar(home))) {
            throw new IllegalStateException(
                    "no " + launcherJar(home) + ": build kplane first (mvn -DskipTests package " + "in " + home + ")");
        }
        return home;
    }

    static Path launcherJar(Path home) {
        return home.resolve("launcher").resolve("target").resolve("kplane-launcher.jar");
    }
}
