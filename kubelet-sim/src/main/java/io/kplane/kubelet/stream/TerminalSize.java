package io.kplane.kubelet.stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import java.util.Optional;

/** The resize channel's message, {@code {"Width":80,"Height":24}} (remotecommand's TerminalSize). */
final class TerminalSize {
    private TerminalSize() {}

    /** {@code [width, height]}, or empty when the message is not a size. */
    static Optional<int[]> parse(String json) {
        try {
            JsonNode n = Json.mapper().readTree(json);
            int w = n.path("Width").asInt(0);
            int h = n.path("Height").asInt(0);
            return w > 0 && h > 0 ? Optional.of(new int[] {w, h}) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
