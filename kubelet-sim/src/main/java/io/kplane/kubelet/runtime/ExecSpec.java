package io.kplane.kubelet.runtime;

import java.util.List;

/**
 * A command to run inside a running container (CRI's {@code ExecRequest}), or, with an empty
 * {@code command}, an attach to the container's own streams.
 *
 * @param command the argv; empty for attach
 * @param stdin   whether the caller sends input (else the command's stdin is empty)
 * @param tty     whether the command runs on a terminal (stderr then goes to the terminal too)
 */
public record ExecSpec(List<String> command, boolean stdin, boolean tty) {
    public ExecSpec {
        command = List.copyOf(command);
    }
}
