package io.kplane.controllers.volume;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code local-path-provisioner}: binds PersistentVolumeClaims to directories, as its own process. */
@Command(
        name = "local-path-provisioner",
        mixinStandardHelpOptions = true,
        description = "Binds PersistentVolumeClaims to directories under --volume-dir (hostPath PersistentVolumes).")
public final class LocalPathProvisionerMain extends ComponentMain {
    @Option(
            names = "--volume-dir",
            defaultValue = ".kplane/volumes",
            description = "directory holding one directory per claim; kubelets must see the same path "
                    + "(default: ${DEFAULT-VALUE})")
    Path volumeDir;

    @Override
    protected ControllerComponent component() {
        return new LocalPathProvisionerComponent(volumeDir);
    }

    public static void main(String[] args) {
        exit(new LocalPathProvisionerMain(), args);
    }
}
