package io.kplane.apiserver.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kplane.api.ResourceType;
import io.kplane.api.json.Json;
import io.kplane.apiserver.errors.ApiError;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.util.Set;

/** JSON and YAML bodies, parsed with the project's Jackson configuration. */
public final class JacksonBodyDecoder implements RequestBodyDecoder {
    private final ObjectMapper mapper;
    private final Set<String> mediaTypes;
    private final String formatName;

    private JacksonBodyDecoder(ObjectMapper mapper, Set<String> mediaTypes, String formatName) {
        this.mapper = mapper;
        this.mediaTypes = mediaTypes;
        this.formatName = formatName;
    }

    public static JacksonBodyDecoder json() {
        return new JacksonBodyDecoder(
                Json.mapper(),
                Set.of(
                        "application/json",
                        "application/merge-patch+json",
                        "application/json-patch+json",
                        "application/strategic-merge-patch+json"),
                "json");
    }

    /** YAML; also reads JSON (a YAML 1.2 superset), which is what kubectl sends for apply-patch+yaml. */
    public static JacksonBodyDecoder yaml() {
        return new JacksonBodyDecoder(
                Json.yamlMapper(),
                Set.of("application/yaml", "application/x-yaml", "text/yaml", "application/apply-patch+yaml"),
                "yaml");
    }

    @Override
    public boolean supports(String mediaType) {
        return mediaTypes.contains(mediaType);
    }

    @Override
    public JsonNode decode(Buffer body, ResourceType resource) {
        if (body == null || body.length() == 0) {
            throw ApiError.badRequest("the request body is empty");
        }
        try {
            JsonNode node = mapper.readTree(body.getBytes());
            if (node == null || node.isMissingNode()) {
                throw ApiError.badRequest("the request body is empty");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("error decoding " + formatName + ": " + e.getOriginalMessage());
        } catch (IOException | RuntimeException e) {
            if (e instanceof ApiError apiError) {
                throw apiError;
            }
            throw ApiError.badRequest("error decoding " + formatName + ": " + e.getMessage());
        }
    }
}
