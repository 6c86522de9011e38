package io.kplane.junit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's resident set size from {@code /proc/PID/status} (Linux); 0 where that does not exist. */
final class ProcessMemory {
    private ProcessMemory() {}

    static long residentKiB(long pid) {
        Path status = Path.of("/proc", String.valueOf(pid), "status");
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux, or the process just ended
        }
        return 0;
    }
}
