package io.kplane.apiserver.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.apiserver.codec.MediaType;

/**
 * Renders successful object, list and watch responses for one kind of {@code Accept} alternative
 * (plain JSON by default; a Table renderer answers {@code as=Table;g=meta.k8s.io}). Errors are
 * always plain Status JSON. Renderers are chosen by {@link ResponseRenderers}; extra ones are found
 * with {@link java.util.ServiceLoader} or registered on the server's configuration.
 */
public interface ResponseRenderer {

    /** True if this renderer produces the given Accept alternative. */
    boolean accepts(MediaType alternative);

    /** The Content-Type of responses this renderer writes. */
    default String contentType() {
        return "application/json";
    }

    JsonNode renderObject(RenderRequest request, ObjectNode object);

    /** {@code list} is a complete {@code XList} object with metadata and items. */
    JsonNode renderList(RenderRequest request, ObjectNode list);

    /**
     * The {@code object} of one watch event (ADDED/MODIFIED/DELETED; BOOKMARK and ERROR objects are
     * passed through untouched). {@code first} is true for the first event of the stream.
     */
    JsonNode renderWatchObject(RenderRequest request, ObjectNode object, boolean first);
}
