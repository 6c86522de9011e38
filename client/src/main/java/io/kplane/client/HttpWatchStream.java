package io.kplane.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.api.meta.Status;
import io.kplane.api.meta.WatchEvent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Reads a chunked watch response line by line: one {@code {"type":..,"object":..}} per line. */
final class HttpWatchStream<T> implements WatchStream<T> {
    private final InputStream body;
    private final BufferedReader reader;
    private final Class<T> type;
    private final String url;
    private volatile boolean closed;

    HttpWatchStream(InputStream body, Class<T> type, String url) {
        this.body = body;
        this.reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        this.type = type;
        this.url = url;
    }

    @Override
    public WatchEvent<T> next() {
        while (true) {
            String line;
            try {
                line = reader.readLine();
            } catch (IOException e) {
                if (closed) {
                    return null;
                }
                throw new ApiConnectionException(url, e);
            }
            if (line == null || closed) {
                return null;
            }
            if (line.isBlank()) {
                continue;
            }
            return decode(line);
        }
    }

    /**
     * One pass over the line as the server writes it ({@code {"type":"ADDED","object":{...}}}): the
     * object is decoded from the parser straight into {@code T}, with no tree in between — every
     * component decodes every event of its informers' kinds, so this is most of an informer's CPU
     * per event. Any other shape (an ERROR, an object before its type, a second type) is decoded
     * through a tree as before.
     */
    private WatchEvent<T> decode(String line) {
        String eventType = null;
        T object = null;
        try (JsonParser p = ClientJson.DECODER.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return decodeViaTree(line);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if ("type".equals(field)) {
                    if (eventType != null || value != JsonToken.VALUE_STRING || WatchEvent.ERROR.equals(p.getText())) {
                        return decodeViaTree(line);
                    }
                    eventType = p.getText();
                } else if ("object".equals(field)) {
                    if (eventType == null) {
                        return decodeViaTree(line);
                    }
                    object = value == JsonToken.VALUE_NULL ? null : ClientJson.DECODER.readValue(p, type);
                } else {
                    p.skipChildren();
                }
            }
        } catch (StreamReadException e) {
            throw new KubeClientException("malformed watch event from " + url + ": " + abbreviate(line), e);
        } catch (IOException e) {
            throw new KubeClientException("cannot decode watch event from " + url + ": " + abbreviate(line), e);
        }
        return new WatchEvent<>(eventType == null ? "" : eventType, object);
    }

    // package-private: the tests compare the two paths
    WatchEvent<T> decodeViaTree(String line) {
        JsonNode tree;
        try {
            tree = ClientJson.DECODER.readTree(line);
        } catch (IOException e) {
            throw new KubeClientException("malformed watch event from " + url + ": " + abbreviate(line), e);
        }
        String eventType = tree.path("type").asText("");
        JsonNode object = tree.get("object");
        try {
            if (WatchEvent.ERROR.equals(eventType)) {
                Status status = object == null ? null : Json.mapper().treeToValue(object, Status.class);
                if (status == null) {
                    throw new ApiException(500, "InternalError", "watch ERROR event without a Status", null);
                }
                throw ApiException.of(status);
            }
            return new WatchEvent<>(eventType, object == null ? null : ClientJson.DECODER.treeToValue(object, type));
        } catch (IOException e) {
            throw new KubeClientException("cannot decode watch event from " + url + ": " + abbreviate(line), e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    @Override
    public void close() {
        closed = true;
        try {
            body.close();
        } catch (IOException ignored) {
            // closing an aborted stream may fail; it is closed either way
        }
    }
}
