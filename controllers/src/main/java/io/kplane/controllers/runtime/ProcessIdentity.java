package io.kplane.controllers.runtime;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The leader-election identity of this process: {@code <hostname>_<pid>}, unique per running replica. */
public final class ProcessIdentity {
    private ProcessIdentity() {}

    public static String current() {
        return hostname() + "_" + ProcessHandle.current().pid();
    }

    private static String hostname() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
