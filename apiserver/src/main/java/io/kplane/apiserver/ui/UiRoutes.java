package io.kplane.apiserver.ui;

import io.kplane.apiserver.http.RouteContributor;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The control-loop lens web UI: static files from this jar under {@code /ui/} and the lens proxy
 * under {@code /ui/api/} (see {@link LensProxy}). Found by {@link java.util.ServiceLoader}.
 */
public final class UiRoutes implements RouteContributor {
    /** Class-path folder holding index.html, the ES modules and the stylesheet. */
    static final String WEB_ROOT = "kplane-ui";

    @Override
    public void mount(Router router) {
        LensProxy proxy = new LensProxy();
        // Vert.x matches "/ui" for "/ui/" too: only the bare path is redirected (relative URLs in the page need the
        // slash).
        router.get("/ui").handler(ctx -> {
            if (ctx.request().path().equals("/ui")) {
                ctx.redirect("/ui/");
            } else {
                ctx.next();
            }
        });
        router.get("/ui/api/components").handler(proxy::components);
        router.get(CronTicksRoute.PATH).handler(new CronTicksRoute()::handle);
        router.route("/ui/api/*").handler(proxy::forward);
        router.get("/ui/*")
                .handler(StaticHandler.create(WEB_ROOT)
                        .setCachingEnabled(false)
                        .setDirectoryListing(false)
                        .setIndexPage("index.html")
                        .setDefaultContentEncoding("UTF-8"));
    }
}
