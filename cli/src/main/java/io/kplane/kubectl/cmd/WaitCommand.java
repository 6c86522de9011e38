package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.kubectl.Api;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.ResourceRef;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code wait TYPE/NAME --for=condition=complete|failed|delete [--timeout=30s]}. Like kubectl it
 * watches the one object (field selector on its name) and re-checks on every event; an object that is
 * already gone satisfies {@code --for=delete} silently, as kubectl's does.
 */
@Command(name = "wait", description = "Wait for a specific condition on one or many resources.")
public final class WaitCommand extends BaseCommand {
    @Parameters(arity = "1..*", paramLabel = "TYPE/NAME | TYPE NAME")
    List<String> args;

    @Option(names = "--for", required = true, description = "condition=NAME[=VALUE] or delete.")
    String condition;

    @Option(names = "--timeout", defaultValue = "30s", description = "How long to wait (default 30s).")
    String timeout;

    private boolean forDelete;
    private String type;
    private String expected;

    @Override
    public Integer call() {
        Instant deadline = Instant.now().plus(Durations.parse(timeout));
        forDelete = condition.equals("delete");
        if (!forDelete) {
            if (!condition.startsWith("condition=")) {
                throw new CliException("error: unrecognized condition: \"" + condition + "\"");
            }
            String spec = condition.substring("condition=".length());
            int eq = spec.indexOf('=');
            type = eq < 0 ? spec : spec.substring(0, eq);
            expected = eq < 0 ? "True" : spec.substring(eq + 1);
        }
        for (ResourceRef ref : ResourceRef.parse(args, namespace())) {
            if (ref.name() == null) {
                throw new CliException("error: resource name is required");
            }
            JsonNode obj = forDelete ? api().getOrNull(ref.path()) : api().get(ref.path());
            if (obj == null) {
                continue;
            }
            if (!waitFor(ref, obj, deadline)) {
                throw new CliException("error: timed out waiting for the condition on "
                        + ref.type().resource() + "/" + ref.name());
            }
            out().println(ref.display() + " condition met");
            out().flush();
        }
        return 0;
    }

    /** Watches {@code ref} from {@code obj}'s resourceVersion until the condition holds or the deadline passes. */
    private boolean waitFor(ResourceRef ref, JsonNode obj, Instant deadline) {
        JsonNode current = obj;
        while (true) {
            if (current == null ? forDelete : met(current)) {
                return true;
            }
            long remaining = Duration.between(Instant.now(), deadline).toMillis();
            if (remaining <= 0) {
                return false;
            }
            Map<String, String> query = Api.query(
                    "fieldSelector",
                    "metadata.name=" + ref.name(),
                    "watch",
                    "true",
                    "resourceVersion",
                    current.path("metadata").path("resourceVersion").asText(""),
                    "timeoutSeconds",
                    Long.toString(Math.max(1, (remaining + 999) / 1000)));
            current = watchUntilMet(ref, query, current);
            if (current != null && !met(current) && Instant.now().isBefore(deadline)) {
                // the watch ended (server timeout, expired resourceVersion): start again from a fresh read
                current = forDelete ? api().getOrNull(ref.path()) : api().get(ref.path());
            }
        }
    }

    /** The object's last known state when the watch ends or the condition is met; null once deleted. */
    private JsonNode watchUntilMet(ResourceRef ref, Map<String, String> query, JsonNode current) {
        try (InputStream stream = api().stream(ref.collectionPath(), query, Api.JSON);
                BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode event = Json.mapper().readTree(line);
                switch (event.path("type").asText()) {
                    case "DELETED" -> {
                        return null;
                    }
                    case "ADDED", "MODIFIED" -> {
                        current = event.path("object");
                        if (met(current)) {
                            return current;
                        }
                    }
                    default -> {
                        // BOOKMARK, ERROR (e.g. 410 Expired): the caller reads the object again
                    }
                }
            }
        } catch (IOException e) {
            // the stream broke: the caller reads the object again
        }
        return current;
    }

    private boolean met(JsonNode obj) {
        if (forDelete) {
            return false;
        }
        for (JsonNode c : obj.path("status").path("conditions")) {
            if (c.path("type").asText().toLowerCase(Locale.ROOT).equals(type.toLowerCase(Locale.ROOT))) {
                return c.path("status").asText().equalsIgnoreCase(expected);
            }
        }
        return false;
    }
}
