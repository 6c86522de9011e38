package io.kplane.kubelet.runtime;

import java.util.List;
import java.util.Map;

/**
 * The terminal of a {@code tty: true} container on the process runtime, as a container runtime gives
 * one to the container's main process: util-linux {@code script} (the same tool {@code exec -t} uses,
 * {@link ProcessExec}) opens a pseudo-terminal, runs the command on it as the leader of a session of
 * its own (so the terminal is its controlling terminal and job control, echo and line editing work),
 * copies its stdin into the terminal and the terminal's output to its stdout — one stream, as a
 * runtime's tty has no separate stderr. The terminal turns {@code \n} into {@code \r\n}; the container
 * log keeps that, as a tty container's log in Kubernetes does.
 *
 * <p>{@code -e} passes the command's exit code through (the container's exit code), {@code -q} drops
 * the banner, {@code -f} flushes every write (an attach sees a prompt at once), and {@code /dev/null}
 * is the typescript nobody needs. {@code script} passes SIGTERM on to the command; its own death closes
 * the terminal, which hangs the command up (SIGHUP), as a terminal that goes away does.
 */
final class ContainerTerminal {
    /** What a runtime sets for a container with a tty when the spec sets no {@code TERM} (dockerd: xterm). */
    static final String DEFAULT_TERM = "xterm";

    private ContainerTerminal() {}

    /**
     * {@code argv} run on a new pseudo-terminal. {@code script} runs its command through {@code $SHELL -c};
     * the {@code exec} makes {@code argv} itself the terminal's session leader, as a runtime makes a tty
     * container's process. Without it the shell stays the leader (dash does not exec a lone command) and
     * a command that moves itself to a process group of its own — GNU {@code timeout}, as in
     * {@code timeout 3600 sh -i} — leaves the terminal's foreground group, so the shell under it is
     * stopped (SIGTTIN) at its first read and never prints a prompt. A session leader cannot leave its
     * group, so it stays in the foreground.
     */
    static List<String> onTerminal(List<String> argv) {
        return List.of("script", "-qefc", "exec " + ProcessExec.shellQuote(argv), "/dev/null");
    }

    /** {@code TERM} for a tty container unless its environment has one. */
    static void addTerm(Map<String, String> env) {
        env.putIfAbsent("TERM", DEFAULT_TERM);
    }
}
