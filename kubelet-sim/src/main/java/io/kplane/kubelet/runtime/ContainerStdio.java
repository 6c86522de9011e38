package io.kplane.kubelet.runtime;

/**
 * A container's own terminal settings from its spec ({@code stdin}, {@code stdinOnce}, {@code tty}):
 * whether its main process keeps a stdin open for {@code kubectl attach -i} (else it reads an empty
 * one), whether that stdin is closed when the first attach that used it ends, and whether it runs on a
 * terminal.
 */
public record ContainerStdio(boolean stdin, boolean stdinOnce, boolean tty) {
    /** What a container without those fields gets: stdin empty, no terminal. */
    public static final ContainerStdio NONE = new ContainerStdio(false, false, false);

    /** From the spec's nullable fields. */
    public static ContainerStdio of(Boolean stdin, Boolean stdinOnce, Boolean tty) {
        return new ContainerStdio(Boolean.TRUE.equals(stdin), Boolean.TRUE.equals(stdinOnce), Boolean.TRUE.equals(tty));
    }
}
