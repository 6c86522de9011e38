package io.kplane.launcher;

/** A launcher failure with a message meant for the user (printed as one line, exit code 1). */
final class LauncherException extends RuntimeException {
    LauncherException(String message) {
        super(message);
    }
}
