package io.kplane.apiserver.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.ResourceType;
import io.kplane.apiserver.errors.ApiError;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Chooses the {@link RequestBodyDecoder} by Content-Type. A media type no decoder supports is a 415
 * (this is where {@code application/vnd.kubernetes.protobuf} plugs in).
 */
public final class BodyDecoders {
    private final List<RequestBodyDecoder> decoders = new CopyOnWriteArrayList<>();

    public static BodyDecoders standard() {
        BodyDecoders d = new BodyDecoders();
        d.register(JacksonBodyDecoder.json());
        d.register(JacksonBodyDecoder.yaml());
        return d;
    }

    /** Adds a decoder; it is consulted before the ones registered earlier. */
    public BodyDecoders register(RequestBodyDecoder decoder) {
        decoders.add(0, decoder);
        return this;
    }

    public boolean supports(String contentType) {
        String type = MediaType.parse(contentType).type();
        return decoders.stream().anyMatch(d -> d.supports(type));
    }

    public JsonNode decode(String contentType, Buffer body, ResourceType resource) {
        String type = MediaType.parse(contentType == null || contentType.isBlank() ? "application/json" : contentType)
                .type();
        for (RequestBodyDecoder d : decoders) {
            if (d.supports(type)) {
                return d.decode(body, resource);
            }
        }
        throw ApiError.unsupportedMediaType(contentType);
    }
}
