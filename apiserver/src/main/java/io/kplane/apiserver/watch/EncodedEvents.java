package io.kplane.apiserver.watch;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watch lines in plain JSON, encoded once per (revision, event type) and shared by every watcher
 * that sends the same event: with many watchers, encoding dominates the cost of a write's fan-out.
 */
public final class EncodedEvents {
    private static final int MAX_ENTRIES = 4096;
    private final Map<Long, byte[]> added = new ConcurrentHashMap<>();
    private final Map<Long, byte[]> modified = new ConcurrentHashMap<>();
    private final Map<Long, byte[]> deleted = new ConcurrentHashMap<>();

    /** The newline-terminated line {@code {"type":...,"object":...}} for the event at {@code revision}. */
    public byte[] line(String type, long revision, ObjectNode object) {
        Map<Long, byte[]> cache = switch (type) {
            case "ADDED" -> added;
            case "MODIFIED" -> modified;
            case "DELETED" -> deleted;
            default -> null;
        };
        if (cache == null || revision <= 0) {
            return encode(type, object);
        }
        if (cache.size() > MAX_ENTRIES) {
            long floor = revision - MAX_ENTRIES / 2;
            cache.keySet().removeIf(r -> r < floor);
        }
        return cache.computeIfAbsent(revision, r -> encode(type, object));
    }

    public static byte[] encode(String type, com.fasterxml.jackson.databind.JsonNode object) {
        ObjectNode line = JsonNodeFactory.instance.objectNode();
        line.put("type", type);
        line.set("object", object);
        byte[] json = Json.writeBytes(line);
        byte[] withNewline = java.util.Arrays.copyOf(json, json.length + 1);
        withNewline[json.length] = '\n';
        return withNewline;
    }
}
