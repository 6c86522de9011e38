package io.kplane.kubectl.clock;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.api.util.DaemonThreads;
import io.kplane.kubectl.Api;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The Events written while the clock is stepped, from one watch on every namespace's events (cheaper
 * than listing them all after each step): {@link #between} hands out those of one step.
 */
final class EventTail implements AutoCloseable {
    private final ConcurrentLinkedQueue<JsonNode> seen = new ConcurrentLinkedQueue<>();
    private final InputStream stream;
    private final Thread reader;

    EventTail(Api api, long fromRevision) {
        stream = api.stream(
                "/api/v1/events",
                Api.query("watch", "true", "resourceVersion", String.valueOf(fromRevision)),
                Api.JSON);
        reader = DaemonThreads.newThread("event-tail", this::read);
        reader.start();
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                JsonNode event = Json.mapper().readTree(line);
                if (!"BOOKMARK".equals(event.path("type").asText())
                        && !"DELETED".equals(event.path("type").asText())) {
                    seen.add(event.path("object"));
                }
            }
        } catch (Exception e) {
            // closed
        }
    }

    /** Events with a revision in (from, to], in order; later ones stay for the next call. */
    List<JsonNode> between(long from, long to) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode e : seen) {
            long rv = e.path("metadata").path("resourceVersion").asLong();
            if (rv <= to) {
                seen.remove(e);
                if (rv > from) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        // dropping the connection can wait for the reader blocked in read(): not on the caller's thread
        Thread closer = DaemonThreads.newThread("event-tail-close", () -> {
            try {
                stream.close();
            } catch (Exception ignored) {
                // already closed
            }
        });
        closer.start();
        reader.interrupt();
    }
}
