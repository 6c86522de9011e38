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

/**
 * Reads a watch stream on a background thread, collecting its events.
 *
 * <p>A request that fails (no connection, a reset stream, a line that is not JSON) is not a stream that
 * ended: every accessor then throws an {@link AssertionError} with the failure as its cause, so a test
 * waiting on this client (Awaitility rethrows what its condition throws) fails at once and says why,
 * instead of waiting out its timeout. Only a failure after {@link #close()} is the expected end.
 */
public final class WatchClient implements AutoCloseable {
    private final String url;
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final Thread reader;
    private volatile InputStream stream;
    private volatile int status;
    private volatile Throwable failure;

    public WatchClient(String url) {
        this.url = url;
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
                if (!closing.get()) {
                    failure = e; // read by the accessors, which fail the test with it
                }
            } finally {
                ended.set(true);
            }
        });
        reader.start();
    }

    /** Throws when the request failed, so that a wait on this client ends with the cause. */
    private void failIfRequestFailed() {
        Throwable f = failure;
        if (f != null) {
            throw new AssertionError(
                    "watch " + url + " failed (status " + status + ", " + events.size() + " events read): " + f, f);
        }
    }

    public List<JsonNode> events() {
        failIfRequestFailed();
        return events;
    }

    /** Events of the given type, e.g. ADDED. */
    public List<JsonNode> events(String type) {
        return events().stream()
                .filter(e -> e.get("type").asText().equals(type))
                .toList();
    }

    public List<String> summary() {
        return events().stream()
                .filter(e -> !e.get("type").asText().equals("BOOKMARK"))
                .map(e -> e.get("type").asText() + " "
                        + e.at("/object/metadata/name").asText())
                .toList();
    }

    /** True once the server ended the stream; throws (with the cause) when the request failed instead. */
    public boolean ended() {
        boolean done = ended.get();
        failIfRequestFailed();
        return done;
    }

    public int status() {
        failIfRequestFailed();
        return status;
    }

    /** The request's failure, or null (the accessors throw it; this is for a test that expects one). */
    public Throwable failure() {
        return failure;
    }

    @Override
    public void close() {
        closing.set(true);
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
