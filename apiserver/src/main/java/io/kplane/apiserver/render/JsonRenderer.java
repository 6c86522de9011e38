package io.kplane.apiserver.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.apiserver.codec.MediaType;

/** Objects as they are stored: the default for every Accept. */
public final class JsonRenderer implements ResponseRenderer {
    public static final JsonRenderer INSTANCE = new JsonRenderer();

    @Override
    public boolean accepts(MediaType alternative) {
        return alternative.admitsJson() && alternative.param("as") == null;
    }

    @Override
    public JsonNode renderObject(RenderRequest request, ObjectNode object) {
        return object;
    }

    @Override
    public JsonNode renderList(RenderRequest request, ObjectNode list) {
        return list;
    }

    @Override
    public JsonNode renderWatchObject(RenderRequest request, ObjectNode object, boolean first) {
        return object;
    }
}
