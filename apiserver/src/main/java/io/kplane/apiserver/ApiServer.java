package io.kplane.apiserver;

import io.kplane.apiserver.clock.ClockEvents;
import io.kplane.apiserver.clock.ClusterClockCache;
import io.kplane.apiserver.codec.BodyDecoders;
import io.kplane.apiserver.codec.RequestBodyDecoder;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.errors.Errors;
import io.kplane.apiserver.handlers.DiscoveryHandler;
import io.kplane.apiserver.handlers.PodSubresources;
import io.kplane.apiserver.handlers.ResourceHandler;
import io.kplane.apiserver.handlers.WorkContexts;
import io.kplane.apiserver.http.RequestGate;
import io.kplane.apiserver.http.Responses;
import io.kplane.apiserver.http.RouteContributor;
import io.kplane.apiserver.metrics.ApiMetrics;
import io.kplane.apiserver.patch.JsonPatches;
import io.kplane.apiserver.render.ResponseRenderers;
import io.kplane.apiserver.storage.NamespaceCache;
import io.kplane.apiserver.storage.ResourceService;
import io.kplane.apiserver.storage.WriteStrategy;
import io.kplane.store.ResourceStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embeddable API server: serves a {@link ResourceStore} over Kubernetes-compatible HTTP.
 * {@link #start(ResourceStore, ApiServerOptions)} blocks until it listens; {@link #close()} stops it
 * (the store stays open: it belongs to the caller).
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);

    private final Vertx vertx;
    private final boolean ownsVertx;
    private final ResourceStore store;
    private final ApiServerOptions options;
    private final ApiMetrics metrics = new ApiMetrics();
    private final HttpClient kubeletClient;
    private final ResourceService service;
    private final ResourceHandler resources;
    private final DiscoveryHandler discovery = new DiscoveryHandler();
    /**
     * Found once and mounted on every event loop's router: a contributor may hold state built for it
     * (the kubectl routes' OpenAPI documents), which one instance per router would build per loop.
     */
    private final List<RouteContributor> routeContributors = routeContributors();
    /** The bound port: given at start (bound before the store opened) or bound once started. */
    private ApiListener listener;

    private final NamespaceCache namespaces;
    private final io.kplane.apiserver.storage.CachedObjects serviceAccounts;
    private final WorkContexts workContexts = new WorkContexts();
    private volatile int actualPort;
    private final ClusterClockCache clock;
    private ClockEvents clockEvents;

    private ApiServer(Vertx vertx, boolean ownsVertx, ResourceStore store, ApiServerOptions options) {
        this.vertx = vertx;
        this.ownsVertx = ownsVertx;
        this.store = store;
        this.options = options;
        this.clock = new ClusterClockCache(
                vertx, store, options.clock(), (before, after) -> clockEvents.changed(before, after));
        WriteStrategy strategy = new WriteStrategy(clock.asJavaClock(), options.clock());
        this.service = new ResourceService(store, strategy, options.admission(), new JsonPatches());
        this.clockEvents = new ClockEvents(service);
        this.namespaces = new NamespaceCache(vertx, store);
        service.namespaceCache(namespaces);
        this.serviceAccounts = new io.kplane.apiserver.storage.CachedObjects(
                vertx, store, io.kplane.api.ResourceTypes.SERVICEACCOUNTS);
        service.lookupCache(serviceAccounts);
        BodyDecoders decoders = BodyDecoders.standard();
        ServiceLoader.load(RequestBodyDecoder.class).forEach(decoders::register);
        options.decoders().forEach(decoders::register);
        ResponseRenderers renderers = ResponseRenderers.discover(options.renderers());
        this.kubeletClient = vertx.createHttpClient(
                new HttpClientOptions().setConnectTimeout(5000).setKeepAlive(false));
        PodSubresources pods = new PodSubresources(service, strategy, kubeletClient, options.kubeletToken());
        this.resources = new ResourceHandler(
                service,
                decoders,
                renderers,
                metrics,
                pods,
                options.bookmarkInterval(),
                workContexts,
                options.watchAnswerGate());
    }

    /** Starts on its own Vert.x instance and waits until it listens. */
    public static ApiServer start(ResourceStore store, ApiServerOptions options) {
        Vertx vertx = Vertx.vertx();
        ApiServer server = new ApiServer(vertx, true, store, options);
        try {
            server.listen().await(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            server.close();
            throw new IllegalStateException("cannot start the API server: " + e.getMessage(), e);
        }
        return server;
    }

    /** Starts on a caller-owned Vert.x instance. */
    public static Future<ApiServer> start(Vertx vertx, ResourceStore store, ApiServerOptions options) {
        ApiServer server = new ApiServer(vertx, false, store, options);
        return server.listen().map(server);
    }

    /**
     * Starts on {@code listener}'s port, already bound (answering while the store opened): its handlers
     * are swapped for this server's routers once the server is initialised, without closing the port.
     */
    static Future<ApiServer> serveOn(ApiListener listener, Vertx vertx, ResourceStore store, ApiServerOptions options) {
        ApiServer server = new ApiServer(vertx, false, store, options);
        server.listener = listener;
        return server.listen().map(server);
    }

    private Future<Void> listen() {
        // The routers are built while the cluster defaults are read, both on the way to "listening": a
        // router's first build initialises the handlers' and Vert.x Web's classes, whereas the defaults
        // are three round trips to the database (0.13-0.7 s). (The build was 0.6 s with the cores, most of
        // it the kubectl routes' OpenAPI documents, now built on their first request: docs/performance.md,
        // 2026-11-28.) The routers serve only once the defaults exist, as before.
        Future<Map<Context, Router>> routers =
                listener == null ? Future.succeededFuture(Map.of()) : buildRouters(listener.contexts());
        Future<Void> defaults = new ClusterDefaults(service, clockEvents).ensure();
        return Future.all(defaults, routers)
                .onSuccess(v -> namespaces.start())
                .onSuccess(v -> serviceAccounts.start())
                .onSuccess(v -> clock.start())
                .compose(v -> listener == null
                        ? ApiListener.bind(vertx, options, this::router)
                                .onSuccess(l -> listener = l)
                                .<Void>mapEmpty()
                        : listener.serve(() -> {
                            Router built = routers.result().get(Vertx.currentContext());
                            return built != null ? built : router();
                        }))
                .onSuccess(v -> {
                    actualPort = listener.port();
                    listener.contexts().forEach(workContexts::add);
                    LOG.info("API server listening on {}", url());
                })
                .mapEmpty();
    }

    /** One router per listening event loop, each built on its own loop (as {@link ApiListener#serve} would). */
    private Future<Map<Context, Router>> buildRouters(List<Context> contexts) {
        Map<Context, Router> built = new ConcurrentHashMap<>();
        List<Future<Void>> all = new ArrayList<>();
        for (Context context : contexts) {
            Promise<Void> done = Promise.promise();
            context.runOnContext(v -> {
                try {
                    built.put(context, router());
                    done.complete();
                } catch (RuntimeException e) {
                    done.fail(e);
                }
            });
            all.add(done.future());
        }
        return Future.all(all).map(v -> built);
    }

    /** {@code http://127.0.0.1:<port>} (https when TLS is configured). */
    public String url() {
        String host = options.bindHost().equals("0.0.0.0") ? "127.0.0.1" : options.bindHost();
        return (options.tlsCertFile() != null ? "https" : "http") + "://" + host + ":" + actualPort;
    }

    public int port() {
        return actualPort;
    }

    public ApiMetrics metrics() {
        return metrics;
    }

    public Vertx vertx() {
        return vertx;
    }

    @Override
    public void close() {
        namespaces.close();
        serviceAccounts.close();
        clock.close();
        try {
            ApiListener l = listener;
            if (l != null) {
                l.contexts().forEach(workContexts::remove);
                l.close().await(30, TimeUnit.SECONDS);
            }
            kubeletClient.close().await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("error while stopping the API server: {}", e.toString());
        }
        if (ownsVertx) {
            try {
                vertx.close().await(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.warn("error while closing Vert.x: {}", e.toString());
            }
        }
        LOG.info("API server stopped");
    }

    private Router router() {
        Router router = Router.router(vertx);
        router.route()
                .handler(new RequestGate(metrics, options.authenticator(), options.maxRequestsInflight())::handle);
        router.get("/healthz").handler(ctx -> plain(ctx, 200, "ok"));
        router.get("/livez").handler(ctx -> plain(ctx, 200, "ok"));
        router.get("/readyz").handler(this::readyz);
        router.get("/metrics").handler(ctx -> ctx.response()
                .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                .end(metrics.scrape()));
        router.get("/version").handler(discovery::version);
        router.get("/api").handler(discovery::core);
        router.get("/apis").handler(discovery::groups);
        router.get("/api/v1").handler(ctx -> discovery.resourceList(ctx, "", "v1"));
        router.get("/apis/:group").handler(discovery::group);
        router.get("/apis/:group/:version")
                .handler(ctx -> discovery.resourceList(ctx, ctx.pathParam("group"), ctx.pathParam("version")));
        routeContributors.forEach(c -> c.mount(router));
        BodyHandler body =
                BodyHandler.create(false).setBodyLimit(options.maxBodyBytes()).setHandleFileUploads(false);
        // an upgrade request has no body to read (some clients still send Content-Length: 0), and a read
        // body would make the WebSocket handshake impossible
        io.vertx.core.Handler<RoutingContext> bodyUnlessUpgrade = ctx -> {
            if (io.kplane.apiserver.watch.WebSockets.isUpgradeRequest(ctx.request())) {
                ctx.next();
            } else {
                body.handle(ctx);
            }
        };
        router.route("/api/*").handler(bodyUnlessUpgrade).handler(resources::handle);
        router.route("/apis/*").handler(bodyUnlessUpgrade).handler(resources::handle);
        router.route().handler(ctx -> Responses.error(ctx, ApiError.pathNotFound()));
        router.route().failureHandler(this::failure);
        return router;
    }

    /**
     * Route contributors on the class path. The kubectl endpoints' {@code KubectlRoutes} is also
     * picked up by name while it does not yet implement {@link RouteContributor}.
     */
    private static List<RouteContributor> routeContributors() {
        List<RouteContributor> out = new ArrayList<>();
        ServiceLoader.load(RouteContributor.class).forEach(out::add);
        if (out.stream().noneMatch(c -> c.getClass().getName().endsWith(".KubectlRoutes"))) {
            try {
                Object routes = Class.forName("io.kplane.apiserver.kubectl.KubectlRoutes")
                        .getConstructor()
                        .newInstance();
                var mount = routes.getClass().getMethod("mount", Router.class);
                out.add(router -> {
                    try {
                        mount.invoke(routes, router);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                });
            } catch (ReflectiveOperationException | LinkageError e) {
                LOG.debug("no kubectl routes on the class path");
            }
        }
        return out;
    }

    private void failure(RoutingContext ctx) {
        Throwable t = ctx.failure();
        ApiError error;
        if (t instanceof ApiError e) {
            error = e;
        } else {
            int code = ctx.statusCode();
            error = switch (code) {
                case 413 -> ApiError.tooLarge();
                case 400 -> ApiError.badRequest(t == null ? "bad request" : t.getMessage());
                case 404 -> ApiError.pathNotFound();
                case 405 -> ApiError.methodNotAllowed(ctx.request().method().name());
                case 415 -> ApiError.unsupportedMediaType(ctx.request().getHeader("Content-Type"));
                default -> {
                    if (code >= 400 && code < 500) {
                        yield ApiError.of(code, "BadRequest", t == null ? "bad request" : t.getMessage());
                    }
                    String during = ctx.request().method() + " " + ctx.request().path();
                    if (t == null) {
                        LOG.error("unexpected failure on {} (status {})", during, code);
                        yield ApiError.internal("unknown error");
                    }
                    yield Errors.internal(t, during);
                }
            };
        }
        Responses.error(ctx, error);
    }

    private void readyz(RoutingContext ctx) {
        var context = vertx.getOrCreateContext();
        // reads (the pool) and writes (the single writer) can fail independently: both must work
        var revision = store.currentRevision().timeout(5, TimeUnit.SECONDS);
        var writer = store.writerReady().timeout(15, TimeUnit.SECONDS);
        Future.join(revision, writer)
                .onComplete(ar -> context.runOnContext(v -> {
                    if (revision.succeeded()) {
                        metrics.storeRevision(revision.result());
                    }
                    if (revision.succeeded() && writer.succeeded()) {
                        plain(ctx, 200, "ok");
                        return;
                    }
                    StringBuilder body = new StringBuilder();
                    body.append(
                            revision.succeeded()
                                    ? "[+]storage ok\n"
                                    : "[-]storage failed: " + revision.cause().getMessage() + "\n");
                    body.append(
                            writer.succeeded()
                                    ? "[+]storage-writer ok\n"
                                    : "[-]storage-writer failed: "
                                            + writer.cause().getMessage() + "\n");
                    plain(ctx, 503, body + "readyz check failed");
                }));
    }

    private static void plain(RoutingContext ctx, int code, String body) {
        ctx.response()
                .setStatusCode(code)
                .putHeader("Content-Type", "text/plain; charset=utf-8")
                .end(body);
    }
}
