package io.kplane.apiserver.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.ResourceType;
import io.kplane.apiserver.errors.ApiError;
import io.vertx.core.buffer.Buffer;

/**
 * Turns a request body of one media type into a JSON tree. One decoder per media type; further
 * formats (protobuf) plug in through {@link BodyDecoders#register}.
 */
public interface RequestBodyDecoder {

    /** True if this decoder reads bodies of {@code mediaType} (the bare type, e.g. {@code application/json}). */
    boolean supports(String mediaType);

    /**
     * Decodes {@code body}; {@code resource} is the addressed resource (a protobuf decoder needs it).
     * Malformed input throws {@link ApiError} 400 BadRequest.
     */
    JsonNode decode(Buffer body, ResourceType resource) throws ApiError;
}
