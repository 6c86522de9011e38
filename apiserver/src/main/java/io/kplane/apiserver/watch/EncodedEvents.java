package io.kplane.apiserver.watch;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.store.EncodedObject;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watch lines in plain JSON, encoded once per (revision, event type) and shared by every watcher
 * that sends the same event: with many watchers, encoding dominates the cost of a write's fan-out.
 *
 * <p>A cached line lives in one direct buffer that every watcher's socket write reads as it is (no
 * per-watcher copy into a heap buffer, and none by Netty into a direct one): at 100 watchers those
 * copies were about half of the API server's allocation. Watchers get read-only views that cannot
 * be released; the memory is a JDK direct buffer, returned by the GC once no view is queued.
 */
public final class EncodedEvents {
    private static final int MAX_ENTRIES = 4096;
    private final Map<Long, ByteBuf> added = new ConcurrentHashMap<>();
    private final Map<Long, ByteBuf> modified = new ConcurrentHashMap<>();
    private final Map<Long, ByteBuf> deleted = new ConcurrentHashMap<>();

    /**
     * The newline-terminated line {@code {"type":...,"object":...}} for the event at {@code revision},
     * as a view of its own (independent indices) on the shared bytes.
     */
    public ByteBuf line(String type, long revision, ObjectNode object) {
        return line(type, revision, object, null);
    }

    /** As {@link #line(String, long, ObjectNode)}, splicing {@code json} (the stored text) when given. */
    public ByteBuf line(String type, long revision, ObjectNode object, EncodedObject json) {
        return view(shared(type, revision, object, json));
    }

    /** A view to write: its own read index, and releasing it (as Netty does once written) is a no-op. */
    public static ByteBuf view(ByteBuf shared) {
        return Unpooled.unreleasableBuffer(shared.duplicate());
    }

    private ByteBuf shared(String type, long revision, ObjectNode object, EncodedObject json) {
        Map<Long, ByteBuf> cache =
                switch (type) {
                    case "ADDED" -> added;
                    case "MODIFIED" -> modified;
                    case "DELETED" -> deleted;
                    default -> null;
                };
        if (cache == null || revision <= 0) {
            return Unpooled.wrappedBuffer(encode(type, object, json, revision));
        }
        if (cache.size() > MAX_ENTRIES) {
            long floor = revision - MAX_ENTRIES / 2;
            cache.keySet().removeIf(r -> r < floor);
        }
        return cache.computeIfAbsent(revision, r -> direct(encode(type, object, json, revision)));
    }

    /** JDK-allocated (freed by the GC's cleaner, not by reference counting), so a dropped line cannot leak. */
    private static ByteBuf direct(byte[] line) {
        ByteBuffer memory = ByteBuffer.allocateDirect(line.length);
        memory.put(line).flip();
        return Unpooled.wrappedBuffer(memory);
    }

    private static byte[] encode(String type, ObjectNode object, EncodedObject json, long revision) {
        if (json == null || revision <= 0) {
            return encode(type, object);
        }
        // the same bytes as serialising {"type":..,"object":..}: the stored text with the revision spliced in
        return ("{\"type\":\"" + type + "\",\"object\":" + json.json(revision) + "}\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
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
