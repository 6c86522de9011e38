package io.kplane.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The ports a stack binds that the user chose or the fixed table gives (not the {@code --free-ports}
 * ones), checked before anything starts: a port another process listens on makes {@code up} fail at
 * once with one line, instead of starting a component that cannot bind it while the launcher's
 * readiness probe reaches the other process (an {@code up --port P} once reported a stack up that was
 * another kplane's, in a container, on P).
 *
 * <p>Free means "this component's bind would succeed now": the check binds the component's own address
 * and port (with {@code SO_REUSEADDR}, as the components bind, so a connection of an earlier stack in
 * {@code TIME_WAIT} does not count). A process may still take the port between the check and the
 * component's bind; the launcher then notices that the port's listener is not its child
 * ({@link ListeningSockets}) and fails the start.
 */
final class FixedPorts {
    /** A port one component will bind, and the option that changes it. */
    record Claim(String component, String host, int port, String remedy) {}

    private FixedPorts() {}

    /** The ports the stack of these options will bind, other than the ones {@code --free-ports} picks. */
    static List<Claim> claims(StackOptions o) {
        List<Claim> claims = new ArrayList<>();
        claims.add(new Claim("apiserver", o.bind(), o.apiPort(), "choose another with --port"));
        if (o.dbUrl() == null) {
            claims.add(new Claim("postgres", "127.0.0.1", o.dbPort(), "choose another with --db-port"));
        }
        if (!o.freePorts()) {
            String fixed = "or start with --free-ports";
            StackPlan.CONTROLLER_PORTS.forEach((name, port) -> claims.add(new Claim(name, "127.0.0.1", port, fixed)));
            String kubeletHost = "127.0.0.1".equals(o.nodeAddress()) ? "127.0.0.1" : "0.0.0.0";
            for (int i = 1; i <= o.nodes(); i++) {
                int port = StackPlan.kubeletPort(i);
                claims.add(new Claim(StackPlan.kubeletName(i), kubeletHost, port, fixed));
                claims.add(new Claim(StackPlan.kubeletName(i), kubeletHost, port + 1, fixed));
            }
        }
        return claims;
    }

    /** Throws, naming the first port that is taken, unless every claimed port is free. */
    static void requireFree(StackOptions o) {
        for (Claim c : claims(o)) {
            if (c.port() <= 0 || isFree(c.host(), c.port())) {
                continue;
            }
            if (c.component().equals("postgres")
                    && heldByLeftPostmaster(o.stateDir().resolve("db"), c.port())) {
                continue; // kplane-component postgres stops the postmaster a launcher killed with -9 left behind
            }
            String leftOver = Files.exists(StateFile.path(o.stateDir()))
                    ? " (a stack of " + o.stateDir() + " left running? ./kplane down --state-dir " + o.stateDir()
                            + " stops it)"
                    : "";
            throw new LauncherException("port " + c.port() + " (" + c.component() + ") is already in use on " + c.host()
                    + ": stop what listens there, " + c.remedy() + leftOver);
        }
    }

    /** True when a server socket on this address and port can be bound now. */
    static boolean isFree(String host, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The port's listener is the postmaster still running on this stack's own data directory (its
     * {@code postmaster.pid} names a live process and this port): the postgres component stops it first.
     */
    static boolean heldByLeftPostmaster(Path dataDir, int port) {
        try {
            List<String> lines = Files.readAllLines(dataDir.resolve("postmaster.pid"));
            return lines.size() >= 4
                    && lines.get(3).trim().equals(Integer.toString(port))
                    && ProcessHandle.of(Long.parseLong(lines.get(0).trim()))
                            .map(ProcessHandle::isAlive)
                            .orElse(false);
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }
}
