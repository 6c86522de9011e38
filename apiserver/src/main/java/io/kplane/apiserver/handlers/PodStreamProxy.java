package io.kplane.apiserver.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.errors.Errors;
import io.kplane.apiserver.http.Responses;
import io.kplane.apiserver.kubelet.KubeletEndpoint;
import io.kplane.apiserver.storage.ResourceService;
import io.kplane.apiserver.storage.Trees;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streaming pod subresources {@code exec}, {@code attach} and {@code portforward}: checked here
 * (pod, container, node, as kube-apiserver's {@code registry/core/pod/strategy.go streamLocation}),
 * then proxied byte for byte to the kubelet's {@code /exec|/attach/{ns}/{pod}/{uid}/{container}} or
 * {@code /portforward/{ns}/{pod}/{uid}} as kube-apiserver's upgrade-aware proxy does: the upgrade
 * request (WebSocket or SPDY, whichever the client asks) goes to the kubelet with the client's
 * protocol headers, the kubelet's answer comes back, and after a {@code 101} both connections are
 * spliced. The API server does not speak the stream protocols itself: the kubelet negotiates
 * {@code v5.channel.k8s.io}/{@code v4.channel.k8s.io} and decides what it cannot serve.
 */
public final class PodStreamProxy {
    private static final Logger LOG = LoggerFactory.getLogger(PodStreamProxy.class);
    /** The request headers a stream upgrade needs at the kubelet (everything else stays here). */
    private static final List<String> UPGRADE_HEADERS = List.of(
            "Connection",
            "Upgrade",
            "Sec-WebSocket-Key",
            "Sec-WebSocket-Version",
            "Sec-WebSocket-Protocol",
            "Sec-WebSocket-Extensions",
            "X-Stream-Protocol-Version");

    private static final List<String> EXEC_FLAGS = List.of("stdin", "stdout", "stderr", "tty");

    private final ResourceService service;
    private final String kubeletToken;
    private volatile HttpClient streamClient;

    public PodStreamProxy(ResourceService service, String kubeletToken) {
        this.service = service;
        this.kubeletToken = kubeletToken;
    }

    /** True for a request asking to switch protocols (WebSocket, or SPDY as older clients do). */
    public static boolean isUpgrade(HttpServerRequest request) {
        String connection = request.getHeader("Connection");
        return request.getHeader("Upgrade") != null
                && connection != null
                && connection.toLowerCase(Locale.ROOT).contains("upgrade");
    }

    /**
     * True for a pod's exec, attach or portforward path: long-running like a watch (kube-apiserver's
     * long-running check names these subresources), so not counted against the in-flight limit.
     */
    public static boolean isStreamPath(String path) {
        return path != null
                && path.contains("/pods/")
                && (path.endsWith("/exec") || path.endsWith("/attach") || path.endsWith("/portforward"));
    }

    /** Serves {@code sub} ({@code exec}, {@code attach} or {@code portforward}) of pod {@code ns/name}. */
    public void serve(RoutingContext ctx, String namespace, String podName, String sub) {
        HttpServerRequest request = ctx.request();
        Context context = ctx.vertx().getOrCreateContext();
        // the upgrade must not be read as a body; hold what arrives until the splice is set up
        holdInput(request);
        MultiMap query = ctx.queryParams();
        service.get(ResourceTypes.PODS, namespace, podName)
                .compose(pod -> {
                    String uri = kubeletUri(pod, namespace, podName, sub, query);
                    return KubeletEndpoint.forPod(service, pod).compose(kubelet -> connect(ctx, context, kubelet, uri));
                })
                .onFailure(t -> context.runOnContext(v -> {
                    releaseInput(request);
                    Responses.error(ctx, Errors.toApiError(t, ResourceTypes.PODS, podName));
                }));
    }

    /** The kubelet path for this request; throws the API server's 400s first. */
    private static String kubeletUri(ObjectNode pod, String namespace, String podName, String sub, MultiMap query) {
        String uid = Trees.text(pod, "metadata", "uid");
        StringBuilder uri = new StringBuilder("/")
                .append(sub)
                .append('/')
                .append(enc(namespace))
                .append('/')
                .append(enc(podName))
                .append('/')
                .append(enc(uid == null ? "" : uid));
        List<String> params = new ArrayList<>();
        if (sub.equals("portforward")) {
            for (String port : query.getAll("ports")) {
                params.add("ports=" + enc(port));
            }
        } else {
            String container = container(pod, podName, query.get("container"));
            uri.append('/').append(enc(container));
            if (sub.equals("exec")) {
                for (String c : query.getAll("command")) {
                    params.add("command=" + enc(c));
                }
            }
            for (String flag : EXEC_FLAGS) {
                String v = query.get(flag);
                if (v != null) {
                    params.add(flag + "=" + enc(v));
                }
            }
        }
        if (!params.isEmpty()) {
            uri.append('?').append(String.join("&", params));
        }
        return uri.toString();
    }

    /**
     * The container a stream is for: the one named (it must exist, init containers and ephemeral
     * containers included), or the only one; kube-apiserver's messages.
     */
    static String container(ObjectNode pod, String podName, String requested) {
        List<String> names = names(Trees.at(pod, "spec", "containers"));
        List<String> init = names(Trees.at(pod, "spec", "initContainers"));
        if (requested != null && !requested.isEmpty()) {
            List<String> all = new ArrayList<>(names);
            all.addAll(init);
            all.addAll(names(Trees.at(pod, "spec", "ephemeralContainers")));
            if (!all.contains(requested)) {
                throw ApiError.badRequest("container " + requested + " is not valid for pod " + podName);
            }
            return requested;
        }
        if (names.size() == 1) {
            return names.get(0);
        }
        String message = "a container name must be specified for pod " + podName;
        if (!names.isEmpty()) {
            message += ", choose one of: [" + String.join(" ", names) + "]";
            if (!init.isEmpty()) {
                message += " or one of the init containers: [" + String.join(" ", init) + "]";
            }
        }
        throw ApiError.badRequest(message);
    }

    private static List<String> names(JsonNode containers) {
        List<String> names = new ArrayList<>();
        if (containers != null && containers.isArray()) {
            containers.forEach(c -> names.add(c.path("name").asText()));
        }
        return names;
    }

    private Future<Void> connect(RoutingContext ctx, Context context, KubeletEndpoint kubelet, String uri) {
        HttpServerRequest request = ctx.request();
        RequestOptions options = kubelet.request(HttpMethod.GET, uri, kubeletToken);
        for (String name : UPGRADE_HEADERS) {
            List<String> values = request.headers().getAll(name);
            if (!values.isEmpty()) {
                options.putHeader(name, String.join(", ", values));
            }
        }
        if (!isUpgrade(request)) {
            // the kubelet answers "Upgrade request required" itself; send a plain GET
            options.removeHeader("Connection");
            options.removeHeader("Upgrade");
            options.setMethod(HttpMethod.GET);
        }
        if (request.method() == HttpMethod.POST) {
            options.setMethod(HttpMethod.POST); // SPDY upgrades are POSTs
        }
        return streamClient(ctx.vertx())
                .request(options)
                .compose(req -> isUpgrade(request) ? req.connect() : req.send())
                .recover(t -> Future.failedFuture(ApiError.of(
                        502,
                        "BadGateway",
                        "cannot reach the kubelet of node " + kubelet.nodeName() + ": " + t.getMessage())))
                .compose(resp -> {
                    // Vert.x hands the kubelet's bytes to the response's handlers as they arrive (those that
                    // came in the same read as the head right away) and drops them while it has none; the
                    // handlers are set later, on the server request's context, so hold everything until then:
                    // the v4 port-forward's port announcements and a refusal's body (and end) come right
                    // behind the head.
                    resp.pause();
                    context.runOnContext(v -> answer(ctx, resp));
                    return Future.succeededFuture();
                });
    }

    /**
     * A client of its own: the log proxy's client sends {@code Connection: close} (no keep-alive), which
     * would replace the {@code Connection: Upgrade} a protocol switch needs. Upgraded connections leave
     * the pool, so keep-alive here only means "do not touch the Connection header".
     */
    private HttpClient streamClient(io.vertx.core.Vertx vertx) {
        HttpClient client = streamClient;
        if (client == null) {
            synchronized (this) {
                if (streamClient == null) {
                    streamClient = vertx.createHttpClient(new io.vertx.core.http.HttpClientOptions()
                            .setConnectTimeout(5000)
                            .setKeepAlive(true));
                }
                client = streamClient;
            }
        }
        return client;
    }

    /**
     * Pauses the request's input. A request that is not an upgrade may carry a body that was already
     * read to its end (a plain POST): there is nothing left to hold, and Vert.x refuses to pause it.
     */
    private static void holdInput(HttpServerRequest request) {
        if (!request.isEnded()) {
            request.pause();
        }
    }

    private static void releaseInput(HttpServerRequest request) {
        if (!request.isEnded()) {
            request.resume();
        }
    }

    /** Splices on a 101; any other kubelet answer becomes a finished Status with the kubelet's message. */
    private static void answer(RoutingContext ctx, HttpClientResponse resp) {
        HttpServerRequest request = ctx.request();
        if (resp.statusCode() != 101) {
            Future<io.vertx.core.buffer.Buffer> body = resp.body();
            resp.resume();
            body.onComplete(ar -> {
                // the upgrade request was sent without an end (connect()), so this connection can carry nothing
                // more: left open it would stay busy in the client's pool, and after a few refusals every stream
                // request would wait for a free connection forever
                resp.request().connection().close();
                releaseInput(request);
                String text = ar.succeeded() ? ar.result().toString().trim() : "";
                ApiError error = kubeletError(resp.statusCode(), text);
                Responses.error(ctx, error);
            });
            return;
        }
        NetSocket kubeletSide = resp.netSocket();
        kubeletSide.pause();
        var response = ctx.response();
        for (var header : resp.headers()) {
            String name = header.getKey();
            if (!name.equalsIgnoreCase("Content-Length") && !name.equalsIgnoreCase("Transfer-Encoding")) {
                response.headers().add(name, header.getValue());
            }
        }
        request.toNetSocket()
                .onSuccess(clientSide -> {
                    clientSide
                            .pipeTo(kubeletSide)
                            .onFailure(t -> LOG.debug("stream to kubelet ended: {}", t.getMessage()));
                    kubeletSide
                            .pipeTo(clientSide)
                            .onFailure(t -> LOG.debug("stream from kubelet ended: {}", t.getMessage()));
                    kubeletSide.resume();
                })
                .onFailure(t -> {
                    LOG.debug("could not take over the client connection: {}", t.getMessage());
                    kubeletSide.close();
                });
    }

    /**
     * What the kubelet refused, as a Status: its 400/404 keep their code, anything else is the node's
     * failure (502); the message is the kubelet's own ({@code container not found ("x")}), or, when the
     * kubelet already answered a Status, that Status.
     */
    static ApiError kubeletError(int code, String text) {
        if (text.startsWith("{")) {
            try {
                io.kplane.api.meta.Status status =
                        io.kplane.api.json.Json.mapper().readValue(text, io.kplane.api.meta.Status.class);
                if (status.code() != null && status.code() > 0 && status.message() != null) {
                    return ApiError.fromStatus(status);
                }
            } catch (Exception notAStatus) {
                // fall through to the text
            }
        }
        String message = text.isEmpty() ? "the kubelet answered " + code : text;
        return switch (code) {
            case 400 -> ApiError.badRequest(message);
            case 401, 403 -> ApiError.of(
                    502, "BadGateway", "the kubelet refused the API server's credentials: " + message);
            case 404 -> ApiError.of(404, "NotFound", message);
            default -> ApiError.of(code >= 500 ? 502 : 400, code >= 500 ? "BadGateway" : "BadRequest", message);
        };
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
