package io.kplane.apiserver.render;

import io.kplane.apiserver.codec.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Picks the renderer for an Accept header: the first alternative (in the client's order) some
 * registered renderer accepts. When none does — an unknown {@code as=}, protobuf, anything — the
 * answer is plain JSON: kubectl does not tolerate 406.
 */
public final class ResponseRenderers {
    private final List<ResponseRenderer> renderers;

    public ResponseRenderers(List<ResponseRenderer> extra) {
        this.renderers = new ArrayList<>(extra);
        this.renderers.add(JsonRenderer.INSTANCE);
    }

    /** The JSON renderer plus every {@link ResponseRenderer} on the class path (ServiceLoader). */
    public static ResponseRenderers discover(List<ResponseRenderer> explicit) {
        List<ResponseRenderer> all = new ArrayList<>(explicit);
        ServiceLoader.load(ResponseRenderer.class).forEach(all::add);
        return new ResponseRenderers(all);
    }

    public ResponseRenderer choose(String accept) {
        for (MediaType alternative : MediaType.parseAccept(accept)) {
            for (ResponseRenderer r : renderers) {
                if (r.accepts(alternative)) {
                    return r;
                }
            }
        }
        return JsonRenderer.INSTANCE;
    }
}
