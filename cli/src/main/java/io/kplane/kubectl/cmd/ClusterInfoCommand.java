package io.kplane.kubectl.cmd;

import io.kplane.kubectl.BaseCommand;
import picocli.CommandLine.Command;

/**
 * {@code cluster-info}: where the control plane is, checked with a request so an unreachable server is
 * an error rather than a cheerful line. kplane runs no cluster services, so kubectl's service lines never
 * appear.
 */
@Command(name = "cluster-info", description = "Display the address of the control plane.")
public final class ClusterInfoCommand extends BaseCommand {
    @Override
    public Integer call() {
        api().get("/version");
        out().println("Kubernetes control plane is running at " + connection().server());
        out().flush();
        return 0;
    }
}
