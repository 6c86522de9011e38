package io.kplane.apiserver.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.json.Json;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.Status;
import io.kplane.api.patch.PatchType;
import io.kplane.apiserver.codec.BodyDecoders;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.errors.Errors;
import io.kplane.apiserver.http.QueryBool;
import io.kplane.apiserver.http.RequestInfo;
import io.kplane.apiserver.http.RequestPaths;
import io.kplane.apiserver.http.Responses;
import io.kplane.apiserver.metrics.ApiMetrics;
import io.kplane.apiserver.patch.PatchTypes;
import io.kplane.apiserver.render.JsonRenderer;
import io.kplane.apiserver.render.RenderRequest;
import io.kplane.apiserver.render.ResponseRenderer;
import io.kplane.apiserver.render.ResponseRenderers;
import io.kplane.apiserver.selector.Selectors;
import io.kplane.apiserver.storage.DeleteResult;
import io.kplane.apiserver.storage.FieldValidation;
import io.kplane.apiserver.storage.ListOptions;
import io.kplane.apiserver.storage.ResourceService;
import io.kplane.apiserver.storage.Trees;
import io.kplane.apiserver.storage.WriteOptions;
import io.kplane.apiserver.storage.WriteResult;
import io.kplane.apiserver.watch.WatchSession;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.List;

/**
 * Every {@code /api/v1/...} and {@code /apis/<group>/<version>/...} resource request: parses the
 * path, picks the verb from the method and query, and delegates to {@link ResourceService}, to a
 * {@link WatchSession}, or to the pod subresource handlers.
 */
public final class ResourceHandler {
    private static final String REQUEST_CONTEXT_KEY = "kplane.requestContext";
    private final ResourceService service;
    private final BodyDecoders decoders;
    private final ResponseRenderers renderers;
    private final ApiMetrics metrics;
    private final PodSubresources pods;
    private final Duration bookmarkInterval;
    private final io.kplane.apiserver.watch.EncodedEvents encodedEvents = new io.kplane.apiserver.watch.EncodedEvents();
    private final WorkContexts workContexts;
    /** Null in a running server; see {@link io.kplane.apiserver.watch.WatchAnswerGate}. */
    private final io.kplane.apiserver.watch.WatchAnswerGate watchAnswerGate;

    public ResourceHandler(
            ResourceService service,
            BodyDecoders decoders,
            ResponseRenderers renderers,
            ApiMetrics metrics,
            PodSubresources pods,
            Duration bookmarkInterval,
            WorkContexts workContexts,
            io.kplane.apiserver.watch.WatchAnswerGate watchAnswerGate) {
        this.workContexts = workContexts;
        this.watchAnswerGate = watchAnswerGate;
        this.service = service;
        this.decoders = decoders;
        this.renderers = renderers;
        this.metrics = metrics;
        this.pods = pods;
        this.bookmarkInterval = bookmarkInterval;
    }

    public void handle(RoutingContext ctx) {
        RequestInfo info;
        try {
            info = RequestPaths.parse(ctx.request().path());
        } catch (ApiError e) {
            Responses.error(ctx, e);
            return;
        }
        ctx.put(ApiMetrics.RESOURCE_KEY, info.resource().storageName());
        Context requestContext = ctx.vertx().getOrCreateContext();
        ctx.put(REQUEST_CONTEXT_KEY, requestContext);
        Context work = spreadable(ctx) ? workContexts.next(requestContext) : requestContext;
        if (work == requestContext) {
            dispatchOrFail(ctx, info);
        } else {
            work.runOnContext(v -> dispatchOrFail(ctx, info));
        }
    }

    /**
     * The streams of one HTTP/2 connection all arrive on that connection's event loop. A write's
     * decoding, admission and validation need no connection state, so they run on the next event
     * loop in turn (the request is complete: its body has been read); the response is written back
     * on the connection's loop. HTTP/1.1 requests stay where they are: connections are already
     * spread over the loops.
     */
    private static boolean spreadable(RoutingContext ctx) {
        HttpMethod method = ctx.request().method();
        return ctx.request().version() == HttpVersion.HTTP_2
                && (method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH);
    }

    private void dispatchOrFail(RoutingContext ctx, RequestInfo info) {
        try {
            dispatch(ctx, info);
        } catch (ApiError e) {
            onRequestContext(ctx, () -> Responses.error(ctx, e));
        } catch (RuntimeException e) {
            onRequestContext(ctx, () -> Responses.error(ctx, Errors.toApiError(e, info.resource(), info.name())));
        }
    }

    /** Runs {@code action} on the event loop of the request's connection. */
    private static void onRequestContext(RoutingContext ctx, Runnable action) {
        Context context = ctx.get(REQUEST_CONTEXT_KEY);
        if (context == null || Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(v -> action.run());
        }
    }

    private void dispatch(RoutingContext ctx, RequestInfo info) {
        HttpMethod method = ctx.request().method();
        ResourceType type = info.resource();
        String sub = info.subresource();
        if (sub != null) {
            switch (sub) {
                case "log" -> {
                    requireMethod(method, HttpMethod.GET);
                    verb(ctx, "get");
                    if (io.kplane.apiserver.watch.WebSockets.isUpgradeRequest(ctx.request())) {
                        // a finished answer, never a chunked 200 that a WebSocket client would wait on
                        throw ApiError.badRequest(
                                "pod logs are served over plain HTTP: request them without " + "the WebSocket upgrade");
                    }
                    pods.log(ctx, info.namespace(), info.name());
                    return;
                }
                case "exec", "attach", "portforward" -> {
                    if (type != io.kplane.api.ResourceTypes.PODS || info.name() == null) {
                        throw ApiError.pathNotFound();
                    }
                    if (method != HttpMethod.GET && method != HttpMethod.POST) {
                        throw ApiError.methodNotAllowed(method.name());
                    }
                    verb(ctx, "connect");
                    pods.streams().serve(ctx, info.namespace(), info.name(), sub);
                    return;
                }
                case "binding" -> {
                    requireMethod(method, HttpMethod.POST);
                    verb(ctx, "create");
                    reply(
                            ctx,
                            pods.bind(info.namespace(), info.name(), body(ctx, type), writeOptions(ctx)),
                            status -> Responses.json(ctx, 201, status));
                    return;
                }
                case "status", "finalize" -> {
                    if (method == HttpMethod.GET) {
                        verb(ctx, "get");
                        renderObject(ctx, type, 200, service.get(type, info.namespace(), info.name()), List.of());
                        return;
                    }
                    if (method == HttpMethod.PUT) {
                        verb(ctx, "update");
                        WriteOptions opts = writeOptions(ctx);
                        renderWrite(
                                ctx,
                                type,
                                service.update(type, info.namespace(), info.name(), sub, body(ctx, type), opts),
                                opts);
                        return;
                    }
                    if (method == HttpMethod.PATCH) {
                        patch(ctx, info);
                        return;
                    }
                    throw ApiError.methodNotAllowed(method.name());
                }
                default -> throw ApiError.pathNotFound();
            }
        }
        if (info.isCollection()) {
            if (method == HttpMethod.GET) {
                if (isTrue(ctx.queryParams().get("watch"))) {
                    watch(ctx, info, listOptions(ctx).fieldSelector());
                } else {
                    verb(ctx, "list");
                    ResponseRenderer r = renderer(ctx);
                    reply(
                            ctx,
                            service.list(type, info.namespace(), listOptions(ctx)),
                            list -> Responses.json(
                                    ctx,
                                    200,
                                    r.renderList(new RenderRequest(type, ctx.queryParams()), list),
                                    r.contentType(),
                                    List.of()));
                }
            } else if (method == HttpMethod.POST) {
                verb(ctx, "create");
                if (type.namespaced() && info.namespace() == null) {
                    throw ApiError.methodNotAllowed("POST");
                }
                WriteOptions opts = writeOptions(ctx);
                renderWrite(ctx, type, service.create(type, info.namespace(), body(ctx, type), opts), opts);
            } else if (method == HttpMethod.DELETE) {
                verb(ctx, "deletecollection");
                if (!type.verbs().contains("deletecollection")) {
                    throw ApiError.methodNotAllowed("DELETE");
                }
                DeleteOptions opts = deleteOptions(ctx, type);
                reply(
                        ctx,
                        service.deleteCollection(type, info.namespace(), listOptions(ctx), opts),
                        list -> Responses.json(ctx, 200, list));
            } else {
                throw ApiError.methodNotAllowed(method.name());
            }
            return;
        }
        if (method == HttpMethod.GET && isTrue(ctx.queryParams().get("watch"))) {
            watch(
                    ctx,
                    info,
                    NamedWatch.fieldSelector(
                            type, info.name(), ctx.queryParams().get("fieldSelector")));
        } else if (method == HttpMethod.GET) {
            verb(ctx, "get");
            renderObject(ctx, type, 200, service.get(type, info.namespace(), info.name()), List.of());
        } else if (method == HttpMethod.PUT) {
            verb(ctx, "update");
            WriteOptions opts = writeOptions(ctx);
            renderWrite(
                    ctx, type, service.update(type, info.namespace(), info.name(), null, body(ctx, type), opts), opts);
        } else if (method == HttpMethod.PATCH) {
            patch(ctx, info);
        } else if (method == HttpMethod.DELETE) {
            verb(ctx, "delete");
            DeleteOptions opts = deleteOptions(ctx, type);
            reply(ctx, service.delete(type, info.namespace(), info.name(), opts), result -> deleted(ctx, type, result));
        } else {
            throw ApiError.methodNotAllowed(method.name());
        }
    }

    private void patch(RoutingContext ctx, RequestInfo info) {
        verb(ctx, "patch");
        ResourceType type = info.resource();
        String contentType = ctx.request().getHeader("Content-Type");
        PatchType patchType = PatchTypes.fromContentType(contentType);
        if (patchType == PatchType.APPLY
                && (ctx.queryParams().get("fieldManager") == null
                        || ctx.queryParams().get("fieldManager").isEmpty())) {
            throw ApiError.invalidMessage("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: "
                    + "is required for apply patch");
        }
        JsonNode patch = decoders.decode(patchType.contentType(), ctx.body().buffer(), type);
        WriteOptions opts = writeOptions(ctx);
        renderWrite(
                ctx,
                type,
                service.patch(type, info.namespace(), info.name(), info.subresource(), patchType, patch, opts),
                opts);
    }

    private void watch(RoutingContext ctx, RequestInfo info, String fieldSelector) {
        verb(ctx, "watch");
        ResourceType type = info.resource();
        ListOptions options = listOptions(ctx);
        var filter = Selectors.compile(type, options.labelSelector(), fieldSelector);
        String rv = options.resourceVersion();
        Long from = rv == null || rv.isEmpty() || rv.equals("0") ? null : Trees.parseResourceVersion(rv);
        Duration timeout = null;
        String timeoutSeconds = ctx.queryParams().get("timeoutSeconds");
        if (timeoutSeconds != null && !timeoutSeconds.isEmpty()) {
            timeout = Duration.ofSeconds(parseLong("timeoutSeconds", timeoutSeconds, 0));
        }
        boolean bookmarks = isTrue(ctx.queryParams().get("allowWatchBookmarks"));
        ResponseRenderer r = renderer(ctx);
        Context context = ctx.vertx().getOrCreateContext();
        WatchSession.WatchSettings settings = new WatchSession.WatchSettings(timeout, bookmarks, bookmarkInterval);
        String namespace = type.namespaced() ? info.namespace() : null;
        java.util.function.Function<io.kplane.apiserver.watch.WatchStream, WatchSession> session = stream -> {
            metrics.watchOpened();
            return new WatchSession(
                    context,
                    stream,
                    type,
                    namespace,
                    filter,
                    r,
                    new RenderRequest(type, ctx.queryParams()),
                    settings,
                    encodedEvents,
                    metrics::watchClosed);
        };
        if (from != null) {
            io.kplane.apiserver.watch.WatchUpgrade.serve(
                    ctx, watchAnswerGate, stream -> session.apply(stream).start(service.store(), from));
            return;
        }
        // "Current state first": list before the headers (or the 101) go out, so that a change the
        // client makes once it sees the watch open comes after the list (WatchSession.startListed).
        HttpServerRequest request = ctx.request();
        if (!request.isEnded()) {
            request.pause();
        }
        service.store()
                .list(new io.kplane.store.ListRequest(type.storageName(), namespace, filter, 0, null))
                .onComplete(ar -> context.runOnContext(v -> {
                    if (!request.isEnded()) {
                        request.resume();
                    }
                    if (ar.failed()) {
                        Responses.error(ctx, Errors.toApiError(ar.cause(), type, null));
                        return;
                    }
                    io.kplane.apiserver.watch.WatchUpgrade.serve(ctx, watchAnswerGate, stream -> session.apply(stream)
                            .startListed(service.store(), ar.result()));
                }));
    }

    private void deleted(RoutingContext ctx, ResourceType type, DeleteResult result) {
        if (result.removed()) {
            ObjectNode o = result.object();
            Status status = Status.success(new Status.StatusDetails(
                    Trees.name(o), type.group(), type.resource(), Trees.text(o, "metadata", "uid"), null, null));
            Responses.json(ctx, 200, status);
        } else {
            ResponseRenderer r = renderer(ctx);
            Responses.json(
                    ctx,
                    result.accepted() ? 202 : 200,
                    r.renderObject(new RenderRequest(type, ctx.queryParams()), result.object()),
                    r.contentType(),
                    List.of());
        }
    }

    private void renderWrite(RoutingContext ctx, ResourceType type, Future<WriteResult> write, WriteOptions opts) {
        ResponseRenderer r = renderer(ctx);
        reply(ctx, write, result -> {
            int code = result.created() ? 201 : 200;
            byte[] encoded = r instanceof JsonRenderer ? result.encodedJson() : null;
            if (encoded != null) {
                // the JSON the store just wrote, with the revision spliced in: no second serialisation
                Responses.json(ctx, code, Buffer.buffer(encoded), r.contentType(), opts.warnings());
            } else {
                Responses.json(
                        ctx,
                        code,
                        r.renderObject(new RenderRequest(type, ctx.queryParams()), result.object()),
                        r.contentType(),
                        opts.warnings());
            }
        });
    }

    private void renderObject(
            RoutingContext ctx, ResourceType type, int code, Future<ObjectNode> object, List<String> warnings) {
        ResponseRenderer r = renderer(ctx);
        reply(
                ctx,
                object,
                o -> Responses.json(
                        ctx,
                        code,
                        r.renderObject(new RenderRequest(type, ctx.queryParams()), o),
                        r.contentType(),
                        warnings));
    }

    /**
     * Completes the response on the request's context, whatever thread the store answered on. Every
     * outcome ends the request: a failure while rendering a result is answered too (a bug there is a
     * logged 500, not a request left hanging until the client gives up).
     */
    private static <T> void reply(RoutingContext ctx, Future<T> future, java.util.function.Consumer<T> onSuccess) {
        Context requestContext = ctx.get(REQUEST_CONTEXT_KEY);
        Context context = requestContext != null ? requestContext : ctx.vertx().getOrCreateContext();
        future.onComplete(ar -> context.runOnContext(v -> {
            if (ar.succeeded()) {
                try {
                    onSuccess.accept(ar.result());
                } catch (RuntimeException e) {
                    Responses.error(ctx, Errors.toApiError(e, null, null));
                }
            } else {
                Responses.error(ctx, Errors.toApiError(ar.cause(), null, null));
            }
        }));
    }

    private ResponseRenderer renderer(RoutingContext ctx) {
        return renderers.choose(ctx.request().getHeader("Accept"));
    }

    private JsonNode body(RoutingContext ctx, ResourceType type) {
        Buffer buffer = ctx.body() == null ? null : ctx.body().buffer();
        return decoders.decode(ctx.request().getHeader("Content-Type"), buffer, type);
    }

    private static void verb(RoutingContext ctx, String verb) {
        ctx.put(ApiMetrics.VERB_KEY, verb);
    }

    private static void requireMethod(HttpMethod actual, HttpMethod expected) {
        if (!actual.equals(expected)) {
            throw ApiError.methodNotAllowed(actual.name());
        }
    }

    private static WriteOptions writeOptions(RoutingContext ctx) {
        MultiMap q = ctx.queryParams();
        List<String> dryRun = q.getAll("dryRun");
        for (String d : dryRun) {
            if (!d.equals("All")) {
                throw ApiError.badRequest("dryRun: Unsupported value: \"" + d + "\": supported values: \"All\"");
            }
        }
        return WriteOptions.of(!dryRun.isEmpty(), FieldValidation.parse(q.get("fieldValidation")));
    }

    private static ListOptions listOptions(RoutingContext ctx) {
        MultiMap q = ctx.queryParams();
        String limit = q.get("limit");
        int parsedLimit =
                limit == null || limit.isEmpty() ? 0 : (int) Math.min(Integer.MAX_VALUE, parseLong("limit", limit, 0));
        return new ListOptions(
                q.get("labelSelector"),
                q.get("fieldSelector"),
                parsedLimit,
                q.get("continue"),
                q.get("resourceVersion"),
                q.get("resourceVersionMatch"));
    }

    private DeleteOptions deleteOptions(RoutingContext ctx, ResourceType type) {
        DeleteOptions fromBody = null;
        Buffer buffer = ctx.body() == null ? null : ctx.body().buffer();
        if (buffer != null && buffer.length() > 0) {
            JsonNode node = decoders.decode(ctx.request().getHeader("Content-Type"), buffer, type);
            if (!node.isObject()) {
                throw ApiError.badRequest("DeleteOptions must be a JSON object");
            }
            try {
                fromBody = Json.mapper().treeToValue(node, DeleteOptions.class);
            } catch (Exception e) {
                throw ApiError.badRequest("invalid DeleteOptions: " + e.getMessage());
            }
        }
        MultiMap q = ctx.queryParams();
        Long grace = fromBody == null ? null : fromBody.gracePeriodSeconds();
        if (q.get("gracePeriodSeconds") != null) {
            grace = parseLong("gracePeriodSeconds", q.get("gracePeriodSeconds"), Long.MIN_VALUE);
        }
        String policy = fromBody == null ? null : fromBody.propagationPolicy();
        if (q.get("propagationPolicy") != null) {
            policy = q.get("propagationPolicy");
        }
        Boolean orphan = fromBody == null ? null : fromBody.orphanDependents();
        if (q.get("orphanDependents") != null) {
            orphan = isTrue(q.get("orphanDependents"));
        }
        List<String> dryRun = fromBody == null || fromBody.dryRun() == null ? List.of() : fromBody.dryRun();
        if (!q.getAll("dryRun").isEmpty()) {
            dryRun = q.getAll("dryRun");
        }
        for (String d : dryRun) {
            if (!d.equals("All")) {
                throw ApiError.badRequest("dryRun: Unsupported value: \"" + d + "\": supported values: \"All\"");
            }
        }
        DeleteOptions.Preconditions preconditions = fromBody == null ? null : fromBody.preconditions();
        return new DeleteOptions(null, null, grace, preconditions, policy, orphan, dryRun);
    }

    private static long parseLong(String name, String value, long min) {
        try {
            long v = Long.parseLong(value);
            if (v < min) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("invalid value for " + name + ": \"" + value + "\"");
        }
    }

    private static boolean isTrue(String v) {
        return QueryBool.isTrue(v);
    }
}
