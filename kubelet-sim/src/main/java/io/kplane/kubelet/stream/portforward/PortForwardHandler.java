package io.kplane.kubelet.stream.portforward;

import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's {@code /portforward/{ns}/{pod}[/{uid}]}, in the two WebSocket shapes clients send:
 *
 * <ul>
 *   <li>a WebSocket with the subprotocol {@value #SPDY_TUNNEL_PROTOCOL}: SPDY/3.1 frames inside binary
 *       messages, what kubectl 1.32 sends first (client-go {@code tools/portforward} tunnelling dialer;
 *       kube-apiserver would unwrap it, here the API server splices it through and the kubelet speaks it);
 *   <li>a WebSocket with {@code v4.channel.k8s.io} and {@code ports=...} (fabric8, the Python client).
 * </ul>
 *
 * A plain SPDY upgrade (kubectl's fallback, {@code POST} with {@code Upgrade: SPDY/3.1}) gets a finished
 * 400. The pod must have a running container here; the target of each connection is
 * {@link PodTarget#address()}.
 */
public final class PortForwardHandler {
    private static final Logger log = LoggerFactory.getLogger(PortForwardHandler.class);
    public static final String SPDY_TUNNEL_PROTOCOL = "SPDY/3.1+portforward.k8s.io";
    public static final String CHANNEL_PROTOCOL = "v4.channel.k8s.io";

    /** Finds the pod (running here) a request names. */
    @FunctionalInterface
    public interface PodTargets {
        Optional<PodTarget> find(String namespace, String pod, String uid);
    }

    private final PodTargets pods;
    private final ExecutorService pumps;

    public PortForwardHandler(PodTargets pods, ExecutorService pumps) {
        this.pods = pods;
        this.pumps = pumps;
    }

    /** Serves one port-forward request; answers a finished 4xx for what it cannot serve. */
    public void serve(HttpServerRequest request, String namespace, String pod, String uid, List<Integer> ports) {
        Optional<PodTarget> target = pods.find(namespace, pod, uid);
        if (target.isEmpty()) {
            text(request, 404, "pod does not exist");
            return;
        }
        String upgrade = Optional.ofNullable(request.getHeader("Upgrade")).orElse("");
        if (upgrade.equalsIgnoreCase("websocket")) {
            webSocket(request, target.get(), ports);
        } else if (upgrade.toUpperCase(Locale.ROOT).startsWith("SPDY/3.1")) {
            spdy(request);
        } else {
            text(request, 400, "Upgrade request required");
        }
    }

    private void webSocket(HttpServerRequest request, PodTarget target, List<Integer> ports) {
        List<String> offered = protocols(request.getHeader("Sec-WebSocket-Protocol"));
        if (offered.contains(SPDY_TUNNEL_PROTOCOL)) {
            request.toWebSocket()
                    .onSuccess(ws -> {
                        SpdyPortForwardSession session =
                                new SpdyPortForwardSession(FrameTransport.of(ws), pumps, target);
                        ws.binaryMessageHandler(session::receive);
                        ws.closeHandler(v -> session.close());
                    })
                    .onFailure(t -> log.debug("port-forward WebSocket handshake failed: {}", t.getMessage()));
            return;
        }
        if (!offered.isEmpty() && !offered.contains(CHANNEL_PROTOCOL)) {
            text(
                    request,
                    400,
                    "requested protocol(s) are not supported: " + offered + "; supports [" + SPDY_TUNNEL_PROTOCOL + " "
                            + CHANNEL_PROTOCOL + "]");
            return;
        }
        if (ports.isEmpty()) {
            text(request, 400, "query parameter \"port\" is required");
            return;
        }
        request.toWebSocket()
                .onSuccess(ws -> {
                    ws.pause();
                    new ChannelPortForwardSession(ws, pumps, target, ports).start();
                })
                .onFailure(t -> log.debug("port-forward WebSocket handshake failed: {}", t.getMessage()));
    }

    /**
     * A plain SPDY upgrade is a {@code POST}, and Vert.x switches protocols only for {@code GET} (and
     * {@code CONNECT}), in the API server as here: it is refused with a finished 400 naming what is served.
     * kubectl sends it only as the fallback after a failed WebSocket attempt, which fails here only for a
     * reason (pod missing, not running) the fallback would meet too.
     */
    private static void spdy(HttpServerRequest request) {
        text(
                request,
                400,
                "this kubelet serves port forwarding over WebSocket (" + SPDY_TUNNEL_PROTOCOL + ", " + CHANNEL_PROTOCOL
                        + "), not over " + request.getHeader("Upgrade"));
    }

    private static List<String> protocols(String header) {
        if (header == null || header.isBlank()) {
            return List.of();
        }
        return java.util.Arrays.stream(header.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private static void text(HttpServerRequest request, int code, String message) {
        request.response()
                .setStatusCode(code)
                .putHeader("Content-Type", "text/plain; charset=utf-8")
                .end(message + "\n");
    }
}
