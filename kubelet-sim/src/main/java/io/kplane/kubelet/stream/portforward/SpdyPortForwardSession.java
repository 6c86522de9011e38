package io.kplane.kubelet.stream.portforward;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.spdy.DefaultSpdyDataFrame;
import io.netty.handler.codec.spdy.DefaultSpdyPingFrame;
import io.netty.handler.codec.spdy.DefaultSpdyRstStreamFrame;
import io.netty.handler.codec.spdy.DefaultSpdySynReplyFrame;
import io.netty.handler.codec.spdy.SpdyDataFrame;
import io.netty.handler.codec.spdy.SpdyFrame;
import io.netty.handler.codec.spdy.SpdyGoAwayFrame;
import io.netty.handler.codec.spdy.SpdyHeaders;
import io.netty.handler.codec.spdy.SpdyPingFrame;
import io.netty.handler.codec.spdy.SpdyRstStreamFrame;
import io.netty.handler.codec.spdy.SpdyStreamStatus;
import io.netty.handler.codec.spdy.SpdySynReplyFrame;
import io.netty.handler.codec.spdy.SpdySynStreamFrame;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's side of {@code portforward.k8s.io} (apimachinery's {@code portforward} protocol v1) over
 * one SPDY/3.1 connection: the client opens, per forwarded connection, an error stream and a data stream
 * (headers {@code streamType: error|data}, {@code port}, {@code requestID}); every stream gets a reply;
 * when both streams of a request ID are there, the kubelet connects to the pod's port and copies the
 * data stream both ways. A failure goes as text on the error stream
 * ({@code error forwarding port 80 to pod web, uid ...: dial tcp4 127.0.0.1:80: connect: connection refused}),
 * then both streams end. Pings are echoed (client-go pings every 10 s); flow control is not enforced by
 * either side (spdystream ignores window updates).
 */
final class SpdyPortForwardSession {
    private static final Logger log = LoggerFactory.getLogger(SpdyPortForwardSession.class);
    private static final long WRITE_TIMEOUT_SECONDS = 60;

    private final SpdyFrames frames = new SpdyFrames();
    private final FrameTransport transport;
    private final ExecutorService pumps;
    private final PodTarget target;
    private final Map<String, StreamPair> pairs = new HashMap<>();
    private final Map<Integer, StreamPair> byStream = new HashMap<>();
    private boolean closed;

    SpdyPortForwardSession(FrameTransport transport, ExecutorService pumps, PodTarget target) {
        this.transport = transport;
        this.pumps = pumps;
        this.target = target;
    }

    /** One forwarded connection: its two streams and, once both are open, the pod-side connection. */
    private static final class StreamPair {
        final String requestId;
        int dataStream;
        int errorStream;
        String port;
        TargetConnection connection;
        boolean dataReset;
        boolean done;

        StreamPair(String requestId) {
            this.requestId = requestId;
        }
    }

    /** Bytes from the client (any split); decodes and acts on every completed frame. */
    synchronized void receive(Buffer bytes) {
        if (closed) {
            return;
        }
        List<SpdyFrame> decoded;
        try {
            decoded = frames.decode(bytes);
        } catch (RuntimeException e) {
            log.debug("port-forward: not SPDY/3.1 ({}); closing", e.getMessage());
            transport.close();
            close();
            return;
        }
        for (SpdyFrame frame : decoded) {
            try {
                handle(frame);
            } finally {
                ReferenceCountUtil.release(frame);
            }
        }
    }

    private void handle(SpdyFrame frame) {
        if (frame instanceof SpdySynStreamFrame syn) {
            open(syn);
        } else if (frame instanceof SpdyDataFrame data) {
            StreamPair pair = byStream.get(data.streamId());
            if (pair != null && data.streamId() == pair.dataStream && pair.connection != null) {
                if (data.content().isReadable()) {
                    pair.connection.write(Buffer.buffer(ByteBufUtil.getBytes(data.content())));
                }
                if (data.isLast()) {
                    pair.connection.finishWriting();
                }
            }
        } else if (frame instanceof SpdyRstStreamFrame rst) {
            StreamPair pair = byStream.get(rst.streamId());
            if (pair != null && rst.streamId() == pair.dataStream) {
                pair.dataReset = true;
                if (pair.connection != null) {
                    pair.connection.close();
                }
            }
        } else if (frame instanceof SpdyPingFrame ping) {
            send(new DefaultSpdyPingFrame(ping.id()));
        } else if (frame instanceof SpdyGoAwayFrame) {
            close();
        }
        // SETTINGS, WINDOW_UPDATE, HEADERS: nothing to do
    }

    private void open(SpdySynStreamFrame syn) {
        SpdyHeaders headers = syn.headers();
        String type = headers.getAsString("streamtype");
        String port = headers.getAsString("port");
        String requestId = headers.getAsString("requestid");
        // the reply carries the request's own headers: an empty SPDY header block would be zero bytes, which
        // Go's framer cannot read as a zlib block
        SpdySynReplyFrame reply = new DefaultSpdySynReplyFrame(syn.streamId());
        headers.forEach(h -> reply.headers().add(h.getKey(), h.getValue()));
        send(reply);
        if (type == null || requestId == null || port == null) {
            send(new DefaultSpdyRstStreamFrame(syn.streamId(), SpdyStreamStatus.PROTOCOL_ERROR));
            return;
        }
        StreamPair pair = pairs.computeIfAbsent(requestId, StreamPair::new);
        byStream.put(syn.streamId(), pair);
        pair.port = port;
        switch (type) {
            case "error" -> pair.errorStream = syn.streamId();
            case "data" -> pair.dataStream = syn.streamId();
            default -> {
                send(new DefaultSpdyRstStreamFrame(syn.streamId(), SpdyStreamStatus.PROTOCOL_ERROR));
                return;
            }
        }
        if (pair.errorStream != 0 && pair.dataStream != 0 && pair.connection == null) {
            forward(pair);
        }
    }

    private void forward(StreamPair pair) {
        int port;
        try {
            port = Integer.parseInt(pair.port);
            if (port <= 0 || port > 65535) {
                throw new NumberFormatException("out of range");
            }
        } catch (NumberFormatException e) {
            fail(pair, "encountered error parsing port " + pair.port + ": " + e.getMessage());
            return;
        }
        pair.connection = TargetConnection.open(pumps, target, port, new TargetConnection.Listener() {
            @Override
            public void data(Buffer chunk) {
                Future<Void> written;
                synchronized (SpdyPortForwardSession.this) {
                    if (pair.dataReset || closed) {
                        return;
                    }
                    written = send(new DefaultSpdyDataFrame(pair.dataStream, Unpooled.wrappedBuffer(chunk.getBytes())));
                }
                await(written);
            }

            @Override
            public void ended() {
                synchronized (SpdyPortForwardSession.this) {
                    finish(pair);
                }
            }

            @Override
            public void failed(String message) {
                synchronized (SpdyPortForwardSession.this) {
                    fail(pair, "error forwarding port " + port + " to " + target.describe() + ": " + message);
                }
            }
        });
    }

    /** The error as text on the error stream, then both streams end (the kubelet's {@code portForward}). */
    private void fail(StreamPair pair, String message) {
        log.info("port-forward: {}", message);
        if (!closed) {
            send(new DefaultSpdyDataFrame(
                    pair.errorStream, Unpooled.wrappedBuffer(message.getBytes(StandardCharsets.UTF_8))));
        }
        finish(pair);
    }

    private void finish(StreamPair pair) {
        if (pair.done || closed) {
            return;
        }
        pair.done = true;
        if (!pair.dataReset) {
            send(new DefaultSpdyDataFrame(pair.dataStream).setLast(true));
        }
        send(new DefaultSpdyDataFrame(pair.errorStream).setLast(true));
        pairs.remove(pair.requestId);
        byStream.remove(pair.dataStream);
        byStream.remove(pair.errorStream);
    }

    private Future<Void> send(SpdyFrame frame) {
        return transport.write(frames.encode(frame));
    }

    private static void await(Future<Void> written) {
        try {
            written.toCompletionStage().toCompletableFuture().get(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // the client went away: the session is closed by the transport's close handler
        }
    }

    /** The client's connection ended: every pod-side connection is dropped. */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        pairs.values().forEach(p -> {
            if (p.connection != null) {
                p.connection.close();
            }
        });
        pairs.clear();
        byStream.clear();
        frames.close();
    }
}
