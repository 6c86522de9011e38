package io.kplane.api.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Writes a {@code metav1.MicroTime}: always six fractional digits, because Go clients parse these
 * fields with the RFC 3339 micro layout and reject a time without them.
 */
public final class MicroTimeSerializer extends JsonSerializer<Instant> {
    private static final DateTimeFormatter MICRO =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

    public static String format(Instant value) {
        return MICRO.format(value);
    }

    @Override
    public void serialize(Instant value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
        gen.writeString(format(value));
    }
}
