package io.kplane.apiserver.render;

import io.kplane.api.ResourceType;
import io.vertx.core.MultiMap;

/** What a renderer may need to know about the request: the resource, the query (e.g. includeObject). */
public record RenderRequest(ResourceType resource, MultiMap query) {}
