package io.kplane.apiserver.kubectl;

import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.http.Responses;
import io.kplane.apiserver.http.RouteContributor;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The endpoints only kubectl needs: {@code /openapi/v3} (root and group documents) and
 * {@code /openapi/v2}, an empty protobuf document ({@link OpenApiV2}: so that files holding kinds kplane
 * does not serve apply like against a real cluster), and the always-empty {@code services} that {@code kubectl cluster-info} lists
 * ({@link ServiceLookups}). Mounted by the API server's router with {@link #mount(Router)}.
 */
public final class KubectlRoutes implements RouteContributor {
    private static final String V3 = "/openapi/v3";
    private final OpenApiV3 openApi;
    private final ServiceLookups services = new ServiceLookups(new TableRenderer());

    public KubectlRoutes(OpenApiV3 openApi) {
        this.openApi = openApi;
    }

    public KubectlRoutes() {
        this(new OpenApiV3());
    }

    @Override
    public void mount(Router router) {
        router.get(V3).handler(ctx -> whenBuilt(ctx, () -> send(ctx, openApi.root())));
        router.get(V3 + "/*").handler(ctx -> whenBuilt(ctx, () -> group(ctx)));
        router.get("/openapi/v2").handler(ctx -> ctx.response()
                .putHeader("Content-Type", OpenApiV2.CONTENT_TYPE)
                .end(Buffer.buffer(OpenApiV2.protobuf())));
        router.route("/openapi/v2")
                .handler(ctx -> Responses.error(
                        ctx, ApiError.methodNotAllowed(ctx.request().method().name())));
        services.mount(router);
    }

    /**
     * Answers once the OpenAPI documents exist. They are built on the first request for them, not at
     * start (see {@link OpenApiV3#build()}), and that first build runs on a worker thread: it takes tens
     * to hundreds of milliseconds, which would hold up every other request of this event loop.
     */
    private void whenBuilt(RoutingContext ctx, Runnable answer) {
        if (openApi.built()) {
            answer.run();
            return;
        }
        ctx.vertx().executeBlocking(openApi::build, false).onComplete(built -> {
            if (built.succeeded()) {
                answer.run();
            } else {
                ctx.fail(built.cause());
            }
        });
    }

    private void group(RoutingContext ctx) {
        String path = ctx.normalizedPath().substring(V3.length() + 1);
        openApi.group(path).ifPresentOrElse(doc -> send(ctx, doc), () -> Responses.error(ctx, ApiError.pathNotFound()));
    }

    private static void send(RoutingContext ctx, byte[] body) {
        ctx.response().putHeader("Content-Type", "application/json").end(Buffer.buffer(body));
    }
}
