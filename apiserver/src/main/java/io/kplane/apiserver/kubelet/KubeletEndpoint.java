package io.kplane.apiserver.kubelet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.storage.ResourceService;
import io.kplane.apiserver.storage.Trees;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.List;

/**
 * Where the kubelet of a node answers: the one place that decides which URL reaches node X's kubelet,
 * for every API-server-to-kubelet proxy (pods/log today; exec, attach, port-forward use it too).
 *
 * <p>The host is the first of the Node's {@code status.addresses} in {@link #PREFERRED_ADDRESS_TYPES}
 * order, the port {@code status.daemonEndpoints.kubeletEndpoint.Port} (the kube-apiserver's
 * {@code --kubelet-preferred-address-types} and {@code nodeutil.GetPreferredNodeAddress}). The
 * kube-apiserver's default order starts with {@code Hostname}; kplane starts with {@code InternalIP}
 * because a kplane kubelet's {@code Hostname} is its node name unless {@code --node-address} gives a
 * host name, and a node name (e.g. {@code node-1}) usually resolves nowhere.
 *
 * @param nodeName the node
 * @param host     the address the kubelet advertised
 * @param port     the kubelet endpoint's port
 */
public record KubeletEndpoint(String nodeName, String host, int port) {
    public static final List<String> PREFERRED_ADDRESS_TYPES =
            List.of("InternalIP", "Hostname", "InternalDNS", "ExternalDNS", "ExternalIP");

    /**
     * The kubelet of the node {@code pod} is bound to; fails with 400 BadRequest when the pod is not
     * bound, its node does not exist or advertises no address (as the kube-apiserver answers).
     */
    public static Future<KubeletEndpoint> forPod(ResourceService service, ObjectNode pod) {
        String podName = Trees.name(pod);
        String nodeName = Trees.text(pod, "spec", "nodeName");
        if (nodeName == null || nodeName.isEmpty()) {
            return Future.failedFuture(ApiError.badRequest("pod " + podName + " does not have a host assigned"));
        }
        return service.get(ResourceTypes.NODES, null, nodeName)
                .recover(t -> Future.failedFuture(ApiError.badRequest(
                        "pod " + podName + " is assigned to node " + nodeName + " which does not exist")))
                .compose(node -> {
                    try {
                        return Future.succeededFuture(of(node));
                    } catch (ApiError e) {
                        return Future.failedFuture(e);
                    }
                });
    }

    /** The endpoint a Node object advertises; 400 BadRequest when it has no address or port. */
    public static KubeletEndpoint of(ObjectNode node) {
        String host = preferredAddress(Trees.at(node, "status", "addresses"));
        JsonNode port = Trees.at(node, "status", "daemonEndpoints", "kubeletEndpoint", "Port");
        if (host == null || port == null || !port.canConvertToInt() || port.asInt() <= 0) {
            throw ApiError.badRequest("the kubelet of node " + Trees.name(node) + " has no reachable address");
        }
        return new KubeletEndpoint(Trees.name(node), host, port.asInt());
    }

    private static String preferredAddress(JsonNode addresses) {
        if (addresses == null || !addresses.isArray()) {
            return null;
        }
        for (String type : PREFERRED_ADDRESS_TYPES) {
            for (JsonNode a : addresses) {
                String address = a.path("address").asText("");
                if (type.equals(a.path("type").asText()) && !address.isEmpty()) {
                    return address;
                }
            }
        }
        return null;
    }

    /** A request to this kubelet ({@code uri} is path and query), with the API server's kubelet token if any. */
    public RequestOptions request(HttpMethod method, String uri, String bearerToken) {
        RequestOptions options = new RequestOptions()
                .setMethod(method)
                .setHost(host)
                .setPort(port)
                .setURI(uri);
        if (bearerToken != null && !bearerToken.isEmpty()) {
            options.putHeader("Authorization", "Bearer " + bearerToken);
        }
        return options;
    }

    /** For messages: {@code host:port} (IPv6 in brackets). */
    public String authority() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
