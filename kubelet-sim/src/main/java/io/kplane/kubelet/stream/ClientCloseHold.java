package io.kplane.kubelet.stream;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.internal.http.WebSocketInternal;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Holds the client's WebSocket close frame of an exec with stdin until the command has read its input
 * to the end and ended (at most {@link #LIMIT}), so the close is acknowledged only then.
 *
 * <p>Why: a {@code v4.channel.k8s.io} client can end stdin only by closing the connection, and
 * fabric8 7.x's {@code upload} does exactly that — it writes {@code cat - > FILE}'s input, closes, waits
 * for the server's close and at once checks the size with {@code wc -c} in a second exec. The
 * kubelet's {@code wsstream} reads the close only after every earlier stdin message has been handed
 * to the command (its pipe writes are synchronous), and the second exec then needs a new connection
 * and a new process in the container runtime, so on a real node the size check comes after the data.
 * Vert.x answers a close frame the moment it reads it, while kplane's stdin may still be queued for
 * the command (1 upload in 3 saw a short file). So the frame is held here, in front of Vert.x's
 * handler: in its place the end of stdin (the v5 close signal {@code [255, 0]}, which follows the
 * queued input through Vert.x's ordered, pausable delivery) goes on, and the frame itself follows
 * once the command has ended (its exit {@code Status} is then written before the close, as it is for
 * a command that ends by itself) or {@link #LIMIT} has passed (a command that does not stop at the
 * end of its input then runs on, see {@link ExecStreams#CLIENT_GONE_GRACE}). The limit stays below
 * the 10 s a Vert.x client waits for the answer to its close.
 */
final class ClientCloseHold extends ChannelInboundHandlerAdapter {
    static final Duration LIMIT = Duration.ofSeconds(5);
    private static final String NAME = "kplane-exec-close-hold";

    private final CompletableFuture<?> commandEnded;
    private boolean closeSeen;
    /** The client's close frame while it is held, else null. */
    private Object held;

    private ClientCloseHold(CompletableFuture<?> commandEnded) {
        this.commandEnded = commandEnded;
    }

    /**
     * Puts the hold in front of {@code ws}'s handler (call on its event loop, right after the upgrade);
     * {@code commandEnded} completes when the command has ended and its status has been written.
     */
    static void install(ServerWebSocket ws, CompletableFuture<?> commandEnded) {
        ChannelHandlerContext vertx = ((WebSocketInternal) ws).channelHandlerContext();
        vertx.pipeline().addBefore(vertx.name(), NAME, new ClientCloseHold(commandEnded));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof CloseWebSocketFrame) || closeSeen || commandEnded.isDone()) {
            ctx.fireChannelRead(msg);
            return;
        }
        closeSeen = true;
        held = msg;
        ctx.fireChannelRead(new BinaryWebSocketFrame(
                Unpooled.wrappedBuffer(new byte[] {(byte) ChannelStream.CLOSE, ChannelStream.STDIN})));
        commandEnded
                .copy()
                .completeOnTimeout(null, LIMIT.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((v, t) -> ctx.executor().execute(() -> release(ctx)));
    }

    private void release(ChannelHandlerContext ctx) {
        Object frame = held;
        if (frame == null || !ctx.channel().isActive()) {
            return;
        }
        held = null;
        ctx.fireChannelRead(frame);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        // the client gave up waiting: nobody is left to answer
        Object frame = held;
        held = null;
        if (frame != null) {
            ReferenceCountUtil.release(frame);
        }
        super.channelInactive(ctx);
    }
}
