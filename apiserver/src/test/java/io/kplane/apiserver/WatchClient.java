package io.kplane.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.api.util.DaemonThreads;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/** Reads a watch stream on a background thread, collecting its events. */
public final class WatchClient implements AutoCloseable {
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final Thread reader;
    private volatile InputStream stream;
    private volatile int status;

    public WatchClient(String url) {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).GET().build();
        reader = DaemonThreads.newThread("watch-client", () -> {
            try {
                HttpResponse<InputStream> r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
                status = r.statusCode();
                stream = r.body();
                try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        if (!line.isBlank()) {
                            events.add(Json.tree(line));
                        }
                    }
                }
            } catch (Exception e) {
                // the stream was closed
            } finally {
                ended.set(true);
            }
        });
        reader.start();
    }

    public List<JsonNode> events() {
        return events;
    }

    /** Events of the given type, e.g. ADDED. */
    public List<JsonNode> events(String type) {
        return events.stream().filter(e -> e.get("type").asText().equals(type)).toList();
    }

    public List<String> summary() {
        return events.stream()
                .filter(e -> !e.get("type").asText().equals("BOOKMARK"))
                .map(e -> e.get("type").asText() + " "
                        + e.at("/object/metadata/name").asText())
                .toList();
    }

    public boolean ended() {
        return ended.get();
    }

    public int status() {
        return status;
    }

    @Override
    public void close() {
        try {
            if (stream != null) {
                stream.close();
            }
        } catch (Exception ignored) {
            // closing anyway
        }
        reader.interrupt();
    }
}
