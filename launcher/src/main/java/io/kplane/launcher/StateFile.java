package io.kplane.launcher;

import com.fasterxml.jackson.core.type.TypeReference;
import io.kplane.api.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * {@code .kplane/state.json}: the running launcher's pid and its components, so that
 * {@code kplane down|status|logs} work from another terminal. Written as soon as the components are
 * started (so {@code down} can stop a stack that is still starting); {@code ready} once all are healthy.
 */
record StateFile(long launcherPid, String serverUrl, boolean ready, List<Entry> components) {

    record Entry(String name, long pid, int healthPort, String healthPath, String logFile) {}

    static Path path(Path stateDir) {
        return stateDir.resolve("state.json");
    }

    void write(Path stateDir) throws IOException {
        Files.createDirectories(stateDir);
        Path tmp = stateDir.resolve("state.json.tmp");
        Files.writeString(tmp, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(this));
        Files.move(tmp, path(stateDir), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static StateFile read(Path stateDir) throws IOException {
        Path file = path(stateDir);
        if (!Files.exists(file)) {
            return null;
        }
        return Json.mapper().readValue(Files.readString(file), new TypeReference<StateFile>() {});
    }

    static void delete(Path stateDir) {
        try {
            Files.deleteIfExists(path(stateDir));
        } catch (IOException ignored) {
            // nothing to clean up
        }
    }

    boolean launcherAlive() {
        return ProcessHandle.of(launcherPid).map(ProcessHandle::isAlive).orElse(false);
    }
}
