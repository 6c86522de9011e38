package io.kplane.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.kplane.api.json.Json;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The decoder for everything the client reads: {@link Json#mapper()} plus interning of short strings
 * (namespaces, label keys and values, images, kinds, phases...). Informer caches hold thousands of objects
 * that repeat the same few strings; sharing them roughly halves the cache's heap.
 */
final class ClientJson {
    /** Longer strings (UIDs are 36, messages and commands longer) are rarely shared: not worth the lookup. */
    private static final int MAX_INTERNED_LENGTH = 35;

    static final ObjectMapper DECODER = Json.mapper()
            .copy()
            .registerModule(new SimpleModule("kplane-client-interning")
                    .addDeserializer(String.class, new InterningStringDeserializer())
                    .addKeyDeserializer(String.class, new InterningKeyDeserializer()));

    private ClientJson() {}

    /**
     * Bounds the interner: short strings include per-object names that never repeat; once this many are
     * held the table starts over (strings already shared stay shared), so it cannot grow without end.
     */
    private static final int MAX_INTERNED = 100_000;

    private static volatile ConcurrentHashMap<String, String> interned = new ConcurrentHashMap<>();

    /** A map lookup, several times cheaper than {@link String#intern()} on the decode path. */
    static String intern(String s) {
        if (s == null || s.length() > MAX_INTERNED_LENGTH) {
            return s;
        }
        ConcurrentHashMap<String, String> table = interned;
        String shared = table.putIfAbsent(s, s);
        if (shared != null) {
            return shared;
        }
        if (table.size() > MAX_INTERNED) {
            interned = new ConcurrentHashMap<>();
        }
        return s;
    }

    private static final class InterningStringDeserializer extends JsonDeserializer<String> {
        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.hasToken(JsonToken.VALUE_STRING)) {
                return intern(p.getText());
            }
            return StringDeserializer.instance.deserialize(p, ctxt);
        }
    }

    private static final class InterningKeyDeserializer extends KeyDeserializer {
        @Override
        public Object deserializeKey(String key, DeserializationContext ctxt) {
            return intern(key);
        }
    }
}
