package io.kplane.apiserver.http;

import io.kplane.apiserver.auth.TokenAuthenticator;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.metrics.ApiMetrics;
import io.kplane.apiserver.ui.UiPaths;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First handler of every request: one access-log line and the request metrics when the response
 * ends, authentication (health endpoints stay open), and the in-flight limit (long-running watch
 * and log-follow requests are exempt, as in Kubernetes).
 */
public final class RequestGate {
    private static final Logger ACCESS = LoggerFactory.getLogger("io.kplane.apiserver.access");
    private static final Set<String> OPEN_PATHS = Set.of("/healthz", "/livez", "/readyz");

    private final ApiMetrics metrics;
    private final TokenAuthenticator authenticator;
    private final int maxInflight;

    public RequestGate(ApiMetrics metrics, TokenAuthenticator authenticator, int maxInflight) {
        this.metrics = metrics;
        this.authenticator = authenticator;
        this.maxInflight = maxInflight;
    }

    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        boolean longRunning = isLongRunning(ctx);
        boolean counted = !longRunning;
        if (counted) {
            long now = metrics.inflight().incrementAndGet();
            if (maxInflight > 0 && now > maxInflight) {
                metrics.inflight().decrementAndGet();
                counted = false;
                ctx.put(ApiMetrics.VERB_KEY, "rejected");
                finishLog(ctx, start, false);
                Responses.error(ctx, ApiError.tooManyRequests(1));
                return;
            }
        }
        finishLog(ctx, start, counted);
        String path = ctx.request().path();
        if (authenticator != null && !OPEN_PATHS.contains(path) && !UiPaths.isPublicAsset(path)) {
            var user = authenticator.authenticate(ctx.request().getHeader("Authorization"));
            if (user.isEmpty()) {
                Responses.error(ctx, ApiError.unauthorized());
                return;
            }
            ctx.put("kplane.user", user.get().name());
        }
        ctx.next();
    }

    private void finishLog(RoutingContext ctx, long start, boolean counted) {
        ctx.addEndHandler(ar -> {
            if (counted) {
                metrics.inflight().decrementAndGet();
            }
            int code = ctx.response().getStatusCode();
            String verb = ctx.get(ApiMetrics.VERB_KEY, "other");
            String resource = ctx.get(ApiMetrics.RESOURCE_KEY, "");
            Duration latency = Duration.ofNanos(System.nanoTime() - start);
            metrics.request(verb, resource, code, latency);
            if (ACCESS.isInfoEnabled()) {
                ACCESS.info(
                        "{} {} {} {}ms", ctx.request().method(), ctx.request().uri(), code, latency.toMillis());
            }
        });
    }

    private static boolean isLongRunning(RoutingContext ctx) {
        String watch = ctx.request().getParam("watch");
        String follow = ctx.request().getParam("follow");
        return QueryBool.isTrue(watch)
                || QueryBool.isTrue(follow)
                || io.kplane.apiserver.handlers.PodStreamProxy.isStreamPath(
                        ctx.request().path())
                || UiPaths.isStream(ctx.request().path());
    }
}
