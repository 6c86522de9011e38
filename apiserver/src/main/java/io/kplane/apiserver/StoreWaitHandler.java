package io.kplane.apiserver;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;

/**
 * What the API server answers while its database is not open yet, as kube-apiserver waits for etcd
 * instead of exiting: {@code /livez} 200 (the process is fine, do not restart it), {@code /readyz}
 * and {@code /healthz} 503 naming the database and the last error, and every API request a 503
 * {@code ServiceUnavailable} {@code Status} with {@code Retry-After}, so clients back off and retry.
 * The {@link ApiListener} serves it on the API port until the store opens, then swaps in the router.
 */
final class StoreWaitHandler implements Handler<HttpServerRequest> {
    private final String database;
    private volatile String lastError = "not connected yet";

    StoreWaitHandler(String database) {
        this.database = database;
    }

    /** Why the database cannot be used yet (shown by {@code /readyz} and in every 503). */
    void lastError(String message) {
        lastError = message;
    }

    private String reason() {
        return "waiting for the database " + database + ": " + lastError;
    }

    @Override
    public void handle(HttpServerRequest request) {
        String path = request.path();
        if (path.equals("/livez") || path.startsWith("/livez/")) {
            plain(request, 200, "ok");
        } else if (path.equals("/readyz") || path.equals("/healthz")) {
            plain(request, 503, "[-]storage failed: " + reason() + "\n" + path.substring(1) + " check failed");
        } else {
            // Written without the ObjectMapper: this is the first answer a starting API server gives, and
            // building the first mapper (Jackson's class initialisation) here blocked the event loop for
            // seconds under load while the database was still opening.
            String message = new String(JsonStringEncoder.getInstance()
                    .quoteAsString("the server is currently unable to handle the request: " + reason()));
            request.response()
                    .setStatusCode(503)
                    .putHeader("Content-Type", "application/json")
                    .putHeader("Retry-After", "1")
                    .end("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                            + "\"message\":\"" + message + "\",\"reason\":\"ServiceUnavailable\",\"code\":503}");
        }
    }

    private static void plain(HttpServerRequest request, int code, String body) {
        request.response()
                .setStatusCode(code)
                .putHeader("Content-Type", "text/plain; charset=utf-8")
                .end(body);
    }
}
