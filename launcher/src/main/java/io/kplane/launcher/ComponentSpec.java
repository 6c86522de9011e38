package io.kplane.launcher;

import java.util.List;
import java.util.Map;

/**
 * One process of the stack, described the same way the container image runs it: the entry-point
 * name ({@code kplane-component <name> ...}), its arguments, its environment and where its health
 * endpoint answers. {@code healthPath} null means "TCP port open" (PostgreSQL).
 */
public record ComponentSpec(
        String name,
        String entryPoint,
        List<String> args,
        Map<String, String> env,
        int healthPort,
        String healthPath,
        List<String> dependsOn) {

    public String healthUrl() {
        return healthPath == null ? null : "http://127.0.0.1:" + healthPort + healthPath;
    }
}
