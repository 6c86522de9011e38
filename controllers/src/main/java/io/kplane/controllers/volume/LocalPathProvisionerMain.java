package io.kplane.controllers.volume;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code local-path-provisioner}: binds PersistentVolumeClaims to directories, as its own process. */
@Command(
        name = "local-path-provisioner",
        mixinStandardHelpOptions = true,
        description = "Binds PersistentVolumeClaims to directories under --volume-dir (hostPath PersistentVolumes).")
public final class LocalPathProvisionerMain implements Callable<Integer> {
    @Mixin
    ControllerOptions options;

    @Option(
            names = "--volume-dir",
            defaultValue = ".kplane/volumes",
            description = "directory holding one directory per claim; kubelets must see the same path "
                    + "(default: ${DEFAULT-VALUE})")
    Path volumeDir;

    @Override
    public Integer call() throws Exception {
        return ComponentMain.run(new LocalPathProvisionerComponent(volumeDir), options);
    }

    public static void main(String[] args) {
        ComponentMain.exit(new LocalPathProvisionerMain(), args);
    }
}
