package io.kplane.apiserver.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.kplane.api.json.Json;
import io.kplane.apiserver.errors.ApiError;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/** Writes JSON bodies and Status errors. */
public final class Responses {
    public static final String JSON = "application/json";

    private Responses() {}

    public static void json(RoutingContext ctx, int code, Object body) {
        json(ctx, code, body, JSON, List.of());
    }

    public static void json(RoutingContext ctx, int code, Object body, String contentType, List<String> warnings) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        Buffer buffer;
        try {
            buffer = Buffer.buffer(Json.mapper().writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            error(
                    ctx,
                    io.kplane.apiserver.errors.Errors.internal(
                            e,
                            "serialising the response to " + ctx.request().method() + " "
                                    + ctx.request().path()));
            return;
        }
        json(ctx, code, buffer, contentType, warnings);
    }

    /** A response whose body is already encoded. */
    public static void json(RoutingContext ctx, int code, Buffer buffer, String contentType, List<String> warnings) {
        HttpServerResponse response = ctx.response();
        if (response.ended() || response.closed()) {
            return;
        }
        for (String w : warnings) {
            response.headers().add("Warning", "299 - \"" + w.replace("\"", "\\\"") + "\"");
        }
        response.setStatusCode(code).putHeader("Content-Type", contentType).end(buffer);
    }

    public static void error(RoutingContext ctx, ApiError error) {
        HttpServerResponse response = ctx.response();
        if (response.ended() || response.closed()) {
            return;
        }
        if (response.headWritten()) {
            // a stream already started: nothing sensible can be sent any more
            response.reset();
            return;
        }
        if (error.retryAfterSeconds() != null) {
            response.putHeader("Retry-After", Integer.toString(error.retryAfterSeconds()));
        }
        ctx.put(Responses.class.getName() + ".reason", error.reason());
        response.setStatusCode(error.code())
                .putHeader("Content-Type", JSON)
                .end(Buffer.buffer(Json.writeBytes(error.status())));
    }
}
