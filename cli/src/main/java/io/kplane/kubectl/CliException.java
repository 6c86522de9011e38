package io.kplane.kubectl;

/** A failure the CLI reports as one line on stderr (no stack trace) and a non-zero exit code. */
public class CliException extends RuntimeException {
    private final int exitCode;

    public CliException(String message) {
        this(message, 1);
    }

    public CliException(String message, int exitCode) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
