package io.kplane.kubelet.stream.portforward;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.spdy.SpdyFrame;
import io.netty.handler.codec.spdy.SpdyFrameCodec;
import io.netty.handler.codec.spdy.SpdyVersion;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * SPDY/3.1 framing of one connection, both directions: Netty's {@link SpdyFrameCodec} (frame layout,
 * header blocks compressed with zlib and SPDY's dictionary, whose state spans the whole connection)
 * driven through an {@link EmbeddedChannel}, so bytes go in and frames come out without a Netty
 * pipeline of our own. Not thread-safe: the session serialises its calls.
 */
final class SpdyFrames {
    private final EmbeddedChannel codec = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1));

    /** The frames completed by {@code bytes} (a frame may span several calls). Data frames must be released. */
    List<SpdyFrame> decode(Buffer bytes) {
        codec.writeInbound(Unpooled.wrappedBuffer(bytes.getBytes()));
        List<SpdyFrame> frames = new ArrayList<>();
        Object frame;
        while ((frame = codec.readInbound()) != null) {
            if (frame instanceof SpdyFrame spdy) {
                frames.add(spdy);
            } else {
                ReferenceCountUtil.release(frame);
            }
        }
        return frames;
    }

    /** The wire bytes of {@code frame} (its content, if any, is released). */
    Buffer encode(SpdyFrame frame) {
        codec.writeOutbound(frame);
        Buffer out = Buffer.buffer();
        Object chunk;
        while ((chunk = codec.readOutbound()) != null) {
            if (chunk instanceof ByteBuf buf) {
                out.appendBytes(ByteBufUtil.getBytes(buf));
            }
            ReferenceCountUtil.release(chunk);
        }
        return out;
    }

    void close() {
        codec.finishAndReleaseAll();
    }
}
