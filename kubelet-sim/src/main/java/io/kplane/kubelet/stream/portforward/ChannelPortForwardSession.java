package io.kplane.kubelet.stream.portforward;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Port forwarding over the WebSocket channel protocol ({@code v4.channel.k8s.io}, the kubelet's
 * {@code portforward/websocket.go}), what fabric8 and the Kubernetes Python client speak: one
 * WebSocket per forwarded connection, the ports named by the {@code ports} query; port {@code i} has
 * the data channel {@code 2i} and the error channel {@code 2i+1}, and the first message on each is the
 * port number (2 bytes, little-endian). When every port's connection has ended the WebSocket closes.
 */
final class ChannelPortForwardSession {
    private static final long WRITE_TIMEOUT_SECONDS = 60;

    private final ServerWebSocket ws;
    private final ExecutorService pumps;
    private final PodTarget target;
    private final List<Integer> ports;
    private final List<TargetConnection> connections = new ArrayList<>();
    private final AtomicInteger open;

    ChannelPortForwardSession(ServerWebSocket ws, ExecutorService pumps, PodTarget target, List<Integer> ports) {
        this.ws = ws;
        this.pumps = pumps;
        this.target = target;
        this.ports = List.copyOf(ports);
        this.open = new AtomicInteger(ports.size());
    }

    /** Announces the ports, connects each, and wires the client's messages; the socket was paused until now. */
    void start() {
        for (int i = 0; i < ports.size(); i++) {
            int port = ports.get(i);
            Buffer portBytes = Buffer.buffer().appendUnsignedShortLE(port);
            ws.writeBinaryMessage(Buffer.buffer().appendByte((byte) (2 * i)).appendBuffer(portBytes));
            ws.writeBinaryMessage(Buffer.buffer().appendByte((byte) (2 * i + 1)).appendBuffer(portBytes));
        }
        for (int i = 0; i < ports.size(); i++) {
            connections.add(connect(i, ports.get(i)));
        }
        ws.binaryMessageHandler(message -> {
            if (message.length() == 0) {
                return;
            }
            int channel = message.getUnsignedByte(0);
            // only data channels carry client bytes; anything else means nothing, as in wsstream
            if (channel % 2 == 0 && channel / 2 < connections.size()) {
                connections.get(channel / 2).write(message.getBuffer(1, message.length()));
            }
        });
        ws.closeHandler(v -> connections.forEach(TargetConnection::close));
        ws.resume();
    }

    private TargetConnection connect(int index, int port) {
        return TargetConnection.open(pumps, target, port, new TargetConnection.Listener() {
            @Override
            public void data(Buffer chunk) {
                await(ws.writeBinaryMessage(Buffer.buffer(chunk.length() + 1)
                        .appendByte((byte) (2 * index))
                        .appendBuffer(chunk)));
            }

            @Override
            public void ended() {
                portDone();
            }

            @Override
            public void failed(String message) {
                String text = "error forwarding port " + port + " to " + target.describe() + ": " + message;
                await(ws.writeBinaryMessage(Buffer.buffer()
                        .appendByte((byte) (2 * index + 1))
                        .appendString(text, StandardCharsets.UTF_8.name())));
                portDone();
            }
        });
    }

    private void portDone() {
        if (open.decrementAndGet() == 0) {
            ws.close();
        }
    }

    private static void await(Future<Void> written) {
        try {
            written.toCompletionStage().toCompletableFuture().get(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // the client went away: the close handler drops the connections
        }
    }
}
