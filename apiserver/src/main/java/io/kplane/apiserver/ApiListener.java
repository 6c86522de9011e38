package io.kplane.apiserver;

import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The API server's listening socket, bound once: one HTTP server per event loop on one shared port,
 * each passing its requests to a handler that can be replaced while it listens. The process binds
 * it before its database is open (answering with {@link StoreWaitHandler}) and {@link #serve}s the
 * API router once the store is open, so the port never refuses a connection in between and the port
 * it reports is the one that serves the API.
 */
final class ApiListener {
    private final Vertx vertx;
    private final List<Instance> instances = new CopyOnWriteArrayList<>();
    private volatile String deployment;
    private volatile int port;

    private ApiListener(Vertx vertx) {
        this.vertx = vertx;
    }

    /**
     * Binds {@code options}' address ({@code eventLoops} servers sharing one socket; port 0 picks a
     * free one), each server answering with a handler {@code initial} builds on its event loop.
     */
    static Future<ApiListener> bind(
            Vertx vertx, ApiServerOptions options, Supplier<Handler<HttpServerRequest>> initial) {
        ApiListener listener = new ApiListener(vertx);
        // Vert.x shares one listening socket between server instances with the same port; a negative
        // port means "a random port, shared" (0 would give every instance its own random port).
        int sharedPort = ApiHttpServerOptions.sharedPort(options);
        return vertx.deployVerticle(
                        () -> listener.new Instance(options, sharedPort, initial),
                        new DeploymentOptions().setInstances(options.eventLoops()))
                .map(id -> {
                    listener.deployment = id;
                    return listener;
                });
    }

    int port() {
        return port;
    }

    /** The event loops of the servers (the API server spreads request work over them). */
    List<Context> contexts() {
        List<Context> out = new ArrayList<>();
        instances.forEach(i -> out.add(i.context()));
        return out;
    }

    /**
     * Replaces every server's handler by one {@code next} builds on that server's event loop; a request
     * already being answered finishes with the handler it started with. Completes once all are swapped.
     */
    Future<Void> serve(Supplier<Handler<HttpServerRequest>> next) {
        List<Future<Void>> swaps = new ArrayList<>();
        for (Instance instance : instances) {
            Promise<Void> swapped = Promise.promise();
            instance.context().runOnContext(v -> {
                try {
                    instance.handler = next.get();
                    swapped.complete();
                } catch (RuntimeException e) {
                    swapped.fail(e);
                }
            });
            swaps.add(swapped.future());
        }
        return Future.all(swaps).mapEmpty();
    }

    /** Stops listening. */
    Future<Void> close() {
        String id = deployment;
        deployment = null;
        return id == null ? Future.succeededFuture() : vertx.undeploy(id);
    }

    /** One HTTP server on one event loop, delegating to its current handler. */
    private final class Instance extends VerticleBase {
        private final ApiServerOptions options;
        private final int sharedPort;
        private final Supplier<Handler<HttpServerRequest>> initial;
        /** Written on this instance's event loop, read there for every request. */
        private volatile Handler<HttpServerRequest> handler;

        Instance(ApiServerOptions options, int sharedPort, Supplier<Handler<HttpServerRequest>> initial) {
            this.options = options;
            this.sharedPort = sharedPort;
            this.initial = initial;
        }

        Context context() {
            return context;
        }

        @Override
        public Future<?> start() {
            handler = initial.get();
            HttpServer server = vertx.createHttpServer(ApiHttpServerOptions.of(options, sharedPort));
            return server.requestHandler(request -> handler.handle(request))
                    .listen()
                    .onSuccess(s -> {
                        if (port == 0) {
                            port = s.actualPort();
                        }
                        instances.add(this);
                    });
        }

        @Override
        public Future<?> stop() {
            instances.remove(this);
            return Future.succeededFuture();
        }
    }
}
