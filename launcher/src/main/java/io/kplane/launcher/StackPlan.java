package io.kplane.launcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The processes of a local stack, their arguments and ports. The same table is mirrored by
 * {@code deploy/docker-compose.yml} (a test checks that they agree), so a change here must be made
 * there too.
 */
public final class StackPlan {
    /** Health/metrics ports of the controller processes (kube-controller-manager uses 10257, scheduler 10259). */
    public static final Map<String, Integer> CONTROLLER_PORTS = orderedPorts();

    public static final int FIRST_KUBELET_PORT = 10250;
    static final String LOCAL_PATH_PROVISIONER = "local-path-provisioner";

    private StackPlan() {}

    private static Map<String, Integer> orderedPorts() {
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("job-controller", 10261);
        ports.put("cronjob-controller", 10262);
        ports.put("garbage-collector", 10263);
        ports.put("ttl-controller", 10264);
        ports.put("scheduler", 10259);
        ports.put("node-lifecycle", 10265);
        ports.put(LOCAL_PATH_PROVISIONER, 10266);
        ports.put("namespace-controller", 10267);
        return java.util.Collections.unmodifiableMap(ports);
    }

    public static String kubeletName(int index) {
        return "kubelet-sim-" + index;
    }

    public static String nodeName(int index) {
        return "node-" + index;
    }

    /** Kubelet ports step by 2 so that a node's port and port+1 stay free for it. */
    public static int kubeletPort(int index) {
        return FIRST_KUBELET_PORT + 2 * (index - 1);
    }

    public static List<ComponentSpec> plan(StackOptions o) {
        return plainPlan(o).stream().map(c -> withExtraArgs(c, o)).toList();
    }

    /**
     * {@code --component-arg NAME=ARG} appends ARG to a component's arguments: e.g. shorter
     * back-offs for a demo or a test ({@code kubelet-sim=--crashloop-base=1s}). {@code kubelet-sim}
     * applies to every node.
     */
    private static ComponentSpec withExtraArgs(ComponentSpec c, StackOptions o) {
        List<String> extra = o.extraArgs().getOrDefault(c.name(), o.extraArgs().get(c.entryPoint()));
        if (extra == null || extra.isEmpty()) {
            return c;
        }
        List<String> args = new ArrayList<>(c.args());
        args.addAll(extra);
        return new ComponentSpec(
                c.name(), c.entryPoint(), args, c.env(), c.healthPort(), c.healthPath(), c.dependsOn());
    }

    private static List<ComponentSpec> plainPlan(StackOptions o) {
        List<ComponentSpec> components = new ArrayList<>();
        String dbUrl = o.dbUrl();
        if (dbUrl == null) {
            components.add(new ComponentSpec(
                    "postgres",
                    "postgres",
                    List.of("--data-dir", o.stateDir().resolve("db").toString(), "--port", String.valueOf(o.dbPort())),
                    Map.of(),
                    o.dbPort(),
                    null,
                    List.of()));
            dbUrl = "postgresql://postgres@127.0.0.1:" + o.dbPort() + "/postgres";
        }
        List<String> apiArgs =
                new ArrayList<>(List.of("--bind", o.bind(), "--port", String.valueOf(o.apiPort()), "--db-url", dbUrl));
        if (o.auth()) {
            apiArgs.addAll(List.of("--token-auth-file", o.tokenFile().toString()));
        }
        components.add(new ComponentSpec(
                "apiserver",
                "apiserver",
                apiArgs,
                Map.of(),
                o.apiPort(),
                "/healthz",
                dbUrl.equals(o.dbUrl()) ? List.of() : List.of("postgres")));

        // With --auth the token is only in the kubeconfig; without it the server URL is all a client needs.
        List<String> clientArgs = o.auth()
                ? List.of(
                        "--server",
                        o.serverUrl(),
                        "--kubeconfig",
                        o.kubeconfig().toString())
                : List.of("--server", o.serverUrl());
        FreePorts free = o.freePorts() ? new FreePorts() : null;
        CONTROLLER_PORTS.forEach((name, fixedPort) -> {
            int port = free == null ? fixedPort : free.single();
            List<String> args = new ArrayList<>(clientArgs);
            args.addAll(List.of("--health-port", String.valueOf(port)));
            if (name.equals(LOCAL_PATH_PROVISIONER)) {
                // one directory per claim; kubelets on this machine mount them by this same path
                args.addAll(
                        List.of("--volume-dir", o.stateDir().resolve("volumes").toString()));
            }
            components.add(new ComponentSpec(name, name, args, Map.of(), port, "/healthz", List.of("apiserver")));
        });
        for (int i = 1; i <= o.nodes(); i++) {
            int kubeletPort = free == null ? kubeletPort(i) : free.pair();
            List<String> args = new ArrayList<>(clientArgs);
            args.addAll(List.of("--node-name", nodeName(i)));
            if (!"127.0.0.1".equals(o.nodeAddress())) {
                // In containers the kubelet endpoint must accept the API server's log proxy and be
                // advertised under its service name; locally both default to loopback.
                args.addAll(List.of("--node-address", o.nodeAddress(), "--bind", "0.0.0.0"));
            }
            args.addAll(List.of(
                    "--port",
                    String.valueOf(kubeletPort),
                    "--root-dir",
                    o.stateDir().resolve("kubelet").resolve(nodeName(i)).toString(),
                    "--runtime",
                    o.runtime()));
            components.add(new ComponentSpec(
                    kubeletName(i), "kubelet-sim", args, Map.of(), kubeletPort, "/healthz", List.of("apiserver")));
        }
        return components;
    }
}
