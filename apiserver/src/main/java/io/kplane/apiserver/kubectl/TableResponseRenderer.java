package io.kplane.apiserver.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.apiserver.codec.MediaType;
import io.kplane.apiserver.kubectl.TableRenderer.IncludeObject;
import io.kplane.apiserver.render.RenderRequest;
import io.kplane.apiserver.render.ResponseRenderer;
import java.util.ArrayList;
import java.util.List;

/**
 * Answers {@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io} (kubectl's human-readable
 * {@code get}) with Tables for lists, single objects and watch events. Registered through
 * {@code META-INF/services/io.kplane.apiserver.render.ResponseRenderer}.
 */
public final class TableResponseRenderer implements ResponseRenderer {
    private final TableRenderer tables;

    public TableResponseRenderer() {
        this(new TableRenderer());
    }

    public TableResponseRenderer(TableRenderer tables) {
        this.tables = tables;
    }

    @Override
    public boolean accepts(MediaType alternative) {
        return alternative.is("application/json")
                && "Table".equals(alternative.param("as"))
                && "meta.k8s.io".equals(alternative.param("g"))
                && ("v1".equals(alternative.param("v")) || "v1beta1".equals(alternative.param("v")));
    }

    @Override
    public JsonNode renderObject(RenderRequest request, ObjectNode object) {
        return tables.single(request.resource().kind(), object, include(request));
    }

    @Override
    public JsonNode renderList(RenderRequest request, ObjectNode list) {
        List<JsonNode> items = new ArrayList<>();
        list.path("items").forEach(items::add);
        JsonNode meta = list.path("metadata");
        return tables.list(
                request.resource().kind(),
                items,
                meta.path("resourceVersion").asText(""),
                meta.path("continue").asText(""),
                include(request));
    }

    @Override
    public JsonNode renderWatchObject(RenderRequest request, ObjectNode object, boolean first) {
        return tables.watchEvent(request.resource().kind(), object, include(request), first);
    }

    private static IncludeObject include(RenderRequest request) {
        return IncludeObject.parse(
                request.query() == null ? null : request.query().get("includeObject"));
    }
}
