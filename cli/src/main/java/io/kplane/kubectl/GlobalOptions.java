package io.kplane.kubectl;

import picocli.CommandLine.Option;

/** The connection options every command takes (also before the command name). */
public final class GlobalOptions {
    @Option(
            names = "--server",
            description =
                    "The address of the API server (default: kubeconfig, then " + Connection.DEFAULT_SERVER + ").")
    String server;

    @Option(names = "--token", description = "Bearer token for authentication to the API server.")
    String token;

    @Option(names = "--kubeconfig", description = "Path to the kubeconfig file to use.")
    String kubeconfig;

    @Option(
            names = {"-n", "--namespace"},
            description = "The namespace scope for this request.")
    String namespace;

    /** This command's value where set, else the one given before the command name. */
    GlobalOptions over(GlobalOptions outer) {
        GlobalOptions merged = new GlobalOptions();
        merged.server = server != null ? server : outer == null ? null : outer.server;
        merged.token = token != null ? token : outer == null ? null : outer.token;
        merged.kubeconfig = kubeconfig != null ? kubeconfig : outer == null ? null : outer.kubeconfig;
        merged.namespace = namespace != null ? namespace : outer == null ? null : outer.namespace;
        return merged;
    }
}
