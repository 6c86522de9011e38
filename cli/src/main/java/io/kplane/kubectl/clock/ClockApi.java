package io.kplane.kubectl.clock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.clock.Clock;
import io.kplane.api.json.Json;
import io.kplane.kubectl.Api;
import io.kplane.kubectl.CliException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Reads and patches the {@code cluster} Clock through the API, as {@code kubectl patch clock cluster} would. */
final class ClockApi {
    static final String PATH = ResourceTypes.CLOCKS.groupVersionPath() + "/clocks/" + Clock.CLUSTER;

    private final Api api;

    ClockApi(Api api) {
        this.api = api;
    }

    Clock get() {
        JsonNode node = api.getOrNull(PATH);
        if (node == null) {
            throw new CliException("error: the server has no cluster clock (clocks.kplane.io \"cluster\" not found)");
        }
        return Json.mapper().convertValue(node, Clock.class);
    }

    /** A JSON merge patch of the Clock; returns the stored object. */
    Clock patch(ObjectNode patch) {
        JsonNode result = api.call(
                "PATCH",
                PATH,
                Map.of("fieldManager", "kubectl-lite"),
                patch.toString().getBytes(StandardCharsets.UTF_8),
                "application/merge-patch+json",
                Api.JSON);
        return Json.mapper().convertValue(result, Clock.class);
    }

    /** {@code {"spec":{"mode":M,"time":null,"offset":null,"rate":null}}} with the given fields set. */
    static ObjectNode spec(String mode, String time, String offset, Long rate) {
        ObjectNode patch = Json.mapper().createObjectNode();
        ObjectNode spec = patch.putObject("spec");
        spec.put("mode", mode);
        if (time == null) {
            spec.putNull("time");
        } else {
            spec.put("time", time);
        }
        if (offset == null) {
            spec.putNull("offset");
        } else {
            spec.put("offset", offset);
        }
        if (rate == null) {
            spec.putNull("rate");
        } else {
            spec.put("rate", rate);
        }
        return patch;
    }

    Api api() {
        return api;
    }
}
