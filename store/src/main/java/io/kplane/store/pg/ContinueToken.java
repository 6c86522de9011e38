package io.kplane.store.pg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque {@code continue} value of a paged list: base64url of JSON holding the list's revision,
 * the resource it lists, and the last key returned. The next page is the state at that revision
 * after that key (see docs/storage.md).
 */
record ContinueToken(long revision, String resource, String namespace, String name) {
    private static final ObjectMapper MAPPER = Json.mapper();

    String encode() {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("rv", revision).put("r", resource).put("ns", namespace).put("n", name);
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(node.toString().getBytes(StandardCharsets.UTF_8));
    }

    static ContinueToken decode(String token, String expectedResource) {
        try {
            JsonNode node = MAPPER.readTree(Base64.getUrlDecoder().decode(token.trim()));
            ContinueToken result = new ContinueToken(
                    node.required("rv").asLong(),
                    node.required("r").asText(),
                    node.required("ns").asText(),
                    node.required("n").asText());
            if (result.revision() <= 0 || !result.resource().equals(expectedResource)) {
                throw new IllegalArgumentException("token is for another list");
            }
            return result;
        } catch (Exception e) {
            throw new StoreException.BadRequest("invalid continue token: " + e.getMessage());
        }
    }
}
