package io.kplane.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A watch over a WebSocket with the JDK's client (real handshake, real frames): every text frame is
 * kept as it arrived, so a test can check that each frame is exactly one event.
 */
public final class WebSocketWatchClient implements AutoCloseable {
    private final List<String> frames = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final WebSocket socket;

    public WebSocketWatchClient(String httpUrl) throws Exception {
        URI uri = URI.create(httpUrl.replaceFirst("^http", "ws"));
        StringBuilder partial = new StringBuilder();
        socket = HttpClient.newHttpClient()
                .newWebSocketBuilder()
                .connectTimeout(Duration.ofSeconds(10))
                .buildAsync(uri, new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                        partial.append(data);
                        if (last) {
                            frames.add(partial.toString());
                            partial.setLength(0);
                        }
                        ws.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
                        closed.complete(statusCode);
                        return null;
                    }

                    @Override
                    public void onError(WebSocket ws, Throwable error) {
                        closed.completeExceptionally(error);
                    }
                })
                .get(10, TimeUnit.SECONDS);
    }

    /** The raw text frames. */
    public List<String> frames() {
        return frames;
    }

    public List<JsonNode> events() {
        return frames.stream().map(Json::tree).toList();
    }

    /** "TYPE name" of every non-bookmark event. */
    public List<String> summary() {
        return events().stream()
                .filter(e -> !e.get("type").asText().equals("BOOKMARK"))
                .map(e -> e.get("type").asText() + " "
                        + e.at("/object/metadata/name").asText())
                .toList();
    }

    public boolean closed() {
        return closed.isDone();
    }

    /** The close status the server sent. */
    public int closeStatus() throws Exception {
        return closed.get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        socket.abort();
    }
}
