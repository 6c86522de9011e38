package io.kplane.api.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;

/**
 * The one place that configures Jackson for Kubernetes JSON and YAML.
 *
 * <ul>
 *   <li>{@link #mapper()} is lenient: unknown fields are ignored (what controllers and clients want).</li>
 *   <li>{@link #strictMapper()} rejects unknown fields: the server uses it for {@code fieldValidation=Strict}.</li>
 *   <li>{@code null} fields are never written, like Go's {@code omitempty}.</li>
 *   <li>{@link Instant}s are written as RFC 3339 with second precision ({@code metav1.Time}), or with
 *       microseconds when the instant carries sub-second precision ({@code metav1.MicroTime}).</li>
 * </ul>
 */
public final class Json {
    private static final ObjectMapper LENIENT = configure(JsonMapper.builder().build(), false);

    /** Built on first use: a short-lived CLI that never validates strictly or writes YAML skips the cost. */
    private static final class Strict {
        static final ObjectMapper MAPPER = configure(JsonMapper.builder().build(), true);
    }

    private static final class Yaml {
        static final ObjectMapper MAPPER = configure(
                YAMLMapper.builder(YAMLFactory.builder()
                                .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                                .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                                .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
                                .build())
                        .build(),
                false);
    }

    private static final DateTimeFormatter MICRO =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(java.time.ZoneOffset.UTC);

    private Json() {}

    private static ObjectMapper configure(ObjectMapper mapper, boolean strict) {
        SimpleModule time = new SimpleModule("kube-time");
        time.addSerializer(Instant.class, new JsonSerializer<>() {
            @Override
            public void serialize(Instant value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
                gen.writeString(formatTime(value));
            }
        });
        time.addDeserializer(Instant.class, new JsonDeserializer<>() {
            @Override
            public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                if (p.isExpectedStartObjectToken() || p.isExpectedStartArrayToken()) {
                    // not a time; returning null here would also leave the parser inside the value
                    return (Instant) ctxt.handleUnexpectedToken(Instant.class, p);
                }
                String text = p.getValueAsString();
                if (text == null || text.isEmpty()) {
                    return null;
                }
                Instant plain = PlainUtcTime.parse(text);
                if (plain != null) {
                    return plain;
                }
                try {
                    return Instant.parse(text);
                } catch (java.time.format.DateTimeParseException e) {
                    try {
                        return java.time.OffsetDateTime.parse(text).toInstant();
                    } catch (java.time.format.DateTimeParseException e2) {
                        return (Instant) ctxt.handleWeirdStringValue(Instant.class, text, "not an RFC 3339 time");
                    }
                }
            }
        });
        mapper.registerModule(time);
        mapper.setSerializationInclusion(JsonInclude.Include.NON_NULL);
        mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, strict);
        mapper.configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);
        mapper.configure(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY, false);
        mapper.configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);
        mapper.configure(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY, false);
        // Records carry convenience predicates (isTerminal(), isBeingDeleted()); they are not fields.
        mapper.configure(MapperFeature.AUTO_DETECT_IS_GETTERS, false);
        return mapper;
    }

    /** metav1.Time (seconds) or metav1.MicroTime (microseconds) depending on the instant's precision. */
    @SuppressWarnings("JavaInstantGetSecondsGetNano") // only whether there is a sub-second part matters
    public static String formatTime(Instant value) {
        if (value.getNano() == 0) {
            return SecondTimes.format(value);
        }
        return MICRO.format(value);
    }

    public static ObjectMapper mapper() {
        return LENIENT;
    }

    public static ObjectMapper strictMapper() {
        return Strict.MAPPER;
    }

    public static ObjectMapper yamlMapper() {
        return Yaml.MAPPER;
    }

    public static String write(Object value) {
        try {
            return LENIENT.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] writeBytes(Object value) {
        try {
            return LENIENT.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String writeYaml(Object value) {
        try {
            return Yaml.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T read(String json, Class<T> type) {
        try {
            return LENIENT.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T read(byte[] json, Class<T> type) {
        try {
            return LENIENT.readValue(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T read(String json, TypeReference<T> type) {
        try {
            return LENIENT.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode tree(String json) {
        try {
            return LENIENT.readTree(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ObjectNode toTree(Object value) {
        return LENIENT.valueToTree(value);
    }

    public static <T> T fromTree(JsonNode node, Class<T> type) {
        try {
            return LENIENT.treeToValue(node, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
