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

/**
 * The decoder for everything the client reads: {@link Json#mapper()} plus interning of short strings
 * (namespaces, label keys and values, images, kinds, phases...). Informer caches hold thousands of objects
 * that repeat the same few strings; sharing them roughly halves the cache's heap.
 */
final class ClientJson {
    /** Longer strings (UIDs are 36, messages and commands longer) are rarely shared: not worth the lookup. */
    private static final int MAX_INTERNED_LENGTH = 35;

    static final ObjectMapper DECODER = Json.mapper().copy().registerModule(new SimpleModule("kplane-client-interning")
            .addDeserializer(String.class, new InterningStringDeserializer())
            .addKeyDeserializer(String.class, new InterningKeyDeserializer()));

    private ClientJson() {
    }

    static String intern(String s) {
        return s != null && s.length() <= MAX_INTERNED_LENGTH ? s.intern() : s;
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
