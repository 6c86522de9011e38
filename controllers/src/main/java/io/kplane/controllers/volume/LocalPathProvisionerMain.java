package io.kplane.controllers.volume;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.OptionSpecs;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/** {@code local-path-provisioner}: binds PersistentVolumeClaims to directories, as its own process. */
public final class LocalPathProvisionerMain extends ComponentMain {
    public LocalPathProvisionerMain() {
        super(
                "local-path-provisioner",
                "Binds PersistentVolumeClaims to directories under --volume-dir (hostPath PersistentVolumes).");
    }

    @Override
    protected void addOptions(CommandSpec spec) {
        spec.addOption(OptionSpecs.of(
                "--volume-dir",
                Path.class,
                ".kplane/volumes",
                "volumeDir",
                "directory holding one directory per claim; kubelets must see the same path "
                        + "(default: ${DEFAULT-VALUE})"));
    }

    @Override
    protected ControllerComponent component() {
        return new LocalPathProvisionerComponent(value("--volume-dir"));
    }

    public static void main(String[] args) {
        exit(new LocalPathProvisionerMain(), args);
    }
}
