package io.kplane.launcher;

import java.nio.file.Path;

/** What `kplane up` was asked for; {@link StackPlan} turns it into processes. */
public record StackOptions(
        Path stateDir,
        String bind,
        int apiPort,
        int dbPort,
        String dbUrl,
        int nodes,
        String runtime,
        boolean auth,
        String advertisedHost,
        String nodeAddress,
        java.util.Map<String, java.util.List<String>> extraArgs,
        boolean freePorts) {

    public StackOptions {
        extraArgs = extraArgs == null ? java.util.Map.of() : java.util.Map.copyOf(extraArgs);
    }

    public StackOptions(
            Path stateDir,
            String bind,
            int apiPort,
            int dbPort,
            String dbUrl,
            int nodes,
            String runtime,
            boolean auth,
            String advertisedHost,
            String nodeAddress,
            java.util.Map<String, java.util.List<String>> extraArgs) {
        this(
                stateDir,
                bind,
                apiPort,
                dbPort,
                dbUrl,
                nodes,
                runtime,
                auth,
                advertisedHost,
                nodeAddress,
                extraArgs,
                false);
    }

    /** Local stack defaults: everything on loopback. */
    public static StackOptions local(
            Path stateDir,
            String bind,
            int apiPort,
            int dbPort,
            String dbUrl,
            int nodes,
            String runtime,
            boolean auth) {
        String host = "0.0.0.0".equals(bind) ? "127.0.0.1" : bind;
        return new StackOptions(stateDir, bind, apiPort, dbPort, dbUrl, nodes, runtime, auth, host, "127.0.0.1", null);
    }

    public StackOptions withExtraArgs(java.util.Map<String, java.util.List<String>> extra) {
        return new StackOptions(
                stateDir,
                bind,
                apiPort,
                dbPort,
                dbUrl,
                nodes,
                runtime,
                auth,
                advertisedHost,
                nodeAddress,
                extra,
                freePorts);
    }

    /**
     * Controllers' health ports and kubelets' ports chosen among the free ones at start instead of
     * the fixed table ({@link StackPlan#CONTROLLER_PORTS}), so several stacks (e.g. test suites) can
     * run on one machine. The ports chosen are in the state file ({@code kplane status}).
     */
    public StackOptions withFreePorts(boolean free) {
        return new StackOptions(
                stateDir,
                bind,
                apiPort,
                dbPort,
                dbUrl,
                nodes,
                runtime,
                auth,
                advertisedHost,
                nodeAddress,
                extraArgs,
                free);
    }

    /** The URL the other components (and the kubeconfig) use to reach the API server. */
    public String serverUrl() {
        return "http://" + advertisedHost + ":" + apiPort;
    }

    public Path kubeconfig() {
        return stateDir.resolve("kubeconfig");
    }

    public Path logsDir() {
        return stateDir.resolve("logs");
    }

    public Path tokenFile() {
        return stateDir.resolve("tokens.csv");
    }
}
