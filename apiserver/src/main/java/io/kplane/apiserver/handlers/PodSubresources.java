package io.kplane.apiserver.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.json.Json;
import io.kplane.api.meta.Status;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.errors.Errors;
import io.kplane.apiserver.http.Responses;
import io.kplane.apiserver.kubelet.KubeletEndpoint;
import io.kplane.apiserver.storage.ResourceService;
import io.kplane.apiserver.storage.Trees;
import io.kplane.apiserver.storage.WriteOptions;
import io.kplane.apiserver.storage.WriteStrategy;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The pod subresources {@code binding} (assign to a node) and {@code log} (proxied to the kubelet). */
public final class PodSubresources {
    private static final Logger LOG = LoggerFactory.getLogger(PodSubresources.class);
    private static final List<String> LOG_PARAMS =
            List.of("follow", "tailLines", "timestamps", "previous", "sinceSeconds", "sinceTime", "limitBytes");

    private final ResourceService service;
    private final WriteStrategy strategy;
    private final HttpClient kubeletClient;
    private final String kubeletToken;
    private final PodStreamProxy streams;

    public PodSubresources(
            ResourceService service, WriteStrategy strategy, HttpClient kubeletClient, String kubeletToken) {
        this.service = service;
        this.strategy = strategy;
        this.kubeletClient = kubeletClient;
        this.kubeletToken = kubeletToken;
        this.streams = new PodStreamProxy(service, kubeletToken);
    }

    /** exec, attach and portforward: proxied to the kubelet as upgraded streams. */
    public PodStreamProxy streams() {
        return streams;
    }

    /** Sets spec.nodeName and PodScheduled=True; 409 if the pod is already bound. */
    public Future<Status> bind(String namespace, String podName, JsonNode body, WriteOptions options) {
        if (!(body instanceof ObjectNode binding)) {
            throw ApiError.badRequest("the request body must be a Binding object");
        }
        String target = Trees.text(binding, "target", "name");
        String bindingName = Trees.name(binding);
        if (bindingName != null && !bindingName.isEmpty() && !bindingName.equals(podName)) {
            throw ApiError.badRequest("the name of the object (" + bindingName
                    + ") does not match the name on the URL (" + podName + ")");
        }
        if (target == null || target.isEmpty()) {
            throw ApiError.invalid(
                    ResourceTypes.PODS,
                    podName,
                    List.of(new Status.StatusCause("FieldValueRequired", "Required value", "target.name")));
        }
        String time = Json.formatTime(strategy.now());
        return service.get(ResourceTypes.PODS, namespace, podName)
                .compose(pod -> {
                    String bound = Trees.text(pod, "spec", "nodeName");
                    if (bound != null && !bound.isEmpty()) {
                        return Future.failedFuture(ApiError.conflict(
                                ResourceTypes.PODS,
                                podName,
                                "pod " + podName + " is already assigned to node \"" + bound + "\""));
                    }
                    if (Trees.isBeingDeleted(pod)) {
                        return Future.failedFuture(ApiError.conflict(
                                ResourceTypes.PODS,
                                podName,
                                "pod " + podName + " is being deleted, cannot be assigned to a host"));
                    }
                    ObjectNode scheduled = Json.mapper().createObjectNode();
                    scheduled.put("type", "PodScheduled");
                    scheduled.put("status", "True");
                    scheduled.putNull("lastProbeTime");
                    scheduled.put("lastTransitionTime", time);
                    return service.bindPod(namespace, podName, target, scheduled, options);
                })
                .map(pod -> Status.success(null));
    }

    /** Streams the container log from the pod's node's kubelet. */
    public void log(RoutingContext ctx, String namespace, String podName) {
        Context context = ctx.vertx().getOrCreateContext();
        MultiMap query = ctx.queryParams();
        service.get(ResourceTypes.PODS, namespace, podName)
                .compose(pod -> {
                    String container = container(pod, podName, query.get("container"));
                    return KubeletEndpoint.forPod(service, pod)
                            .compose(kubelet -> proxy(ctx, context, kubelet, namespace, podName, container, query));
                })
                .onFailure(t -> context.runOnContext(
                        v -> Responses.error(ctx, Errors.toApiError(t, ResourceTypes.PODS, podName))));
    }

    private static String container(ObjectNode pod, String podName, String requested) {
        List<String> names = new ArrayList<>();
        JsonNode containers = Trees.at(pod, "spec", "containers");
        if (containers != null && containers.isArray()) {
            containers.forEach(c -> names.add(c.path("name").asText()));
        }
        if (requested != null && !requested.isEmpty()) {
            List<String> all = new ArrayList<>(names);
            JsonNode init = Trees.at(pod, "spec", "initContainers");
            if (init != null && init.isArray()) {
                init.forEach(c -> all.add(c.path("name").asText()));
            }
            if (!all.contains(requested)) {
                throw ApiError.badRequest("container " + requested + " is not valid for pod " + podName);
            }
            return requested;
        }
        if (names.size() == 1) {
            return names.get(0);
        }
        throw ApiError.badRequest("a container name must be specified for pod " + podName + ", choose one of: "
                + names.toString().replace(",", ""));
    }

    private Future<Void> proxy(
            RoutingContext ctx,
            Context context,
            KubeletEndpoint kubelet,
            String namespace,
            String pod,
            String container,
            MultiMap query) {
        StringBuilder uri = new StringBuilder("/containerLogs/")
                .append(enc(namespace))
                .append('/')
                .append(enc(pod))
                .append('/')
                .append(enc(container));
        char sep = '?';
        for (String p : LOG_PARAMS) {
            String v = query.get(p);
            if (v != null) {
                uri.append(sep).append(p).append('=').append(enc(v));
                sep = '&';
            }
        }
        RequestOptions options = kubelet.request(HttpMethod.GET, uri.toString(), kubeletToken);
        return kubeletClient
                .request(options)
                .compose(req -> req.send())
                .recover(t -> Future.failedFuture(ApiError.of(
                        502,
                        "BadGateway",
                        "cannot reach the kubelet of node " + kubelet.nodeName() + ": " + t.getMessage())))
                .compose(resp -> {
                    // hold the body until the relay, which runs on the request's context, is wired up
                    resp.pause();
                    context.runOnContext(v -> relay(ctx, resp));
                    return Future.succeededFuture();
                });
    }

    private static void relay(RoutingContext ctx, HttpClientResponse resp) {
        if (resp.statusCode() != 200) {
            resp.body().onComplete(ar -> {
                String text = ar.succeeded() ? ar.result().toString().trim() : "";
                int code = resp.statusCode() == 404 ? 404 : resp.statusCode() >= 500 ? 502 : 400;
                String reason = code == 404 ? "NotFound" : code == 502 ? "BadGateway" : "BadRequest";
                Responses.error(
                        ctx,
                        ApiError.of(code, reason, text.isEmpty() ? "the kubelet answered " + resp.statusCode() : text));
            });
            return;
        }
        var response = ctx.response();
        response.setChunked(true).putHeader("Content-Type", "text/plain");
        response.closeHandler(v -> resp.request().connection().close());
        resp.pipeTo(response).onFailure(t -> LOG.debug("log stream ended: {}", t.getMessage()));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
