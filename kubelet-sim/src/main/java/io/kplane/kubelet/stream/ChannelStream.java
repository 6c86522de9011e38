package io.kplane.kubelet.stream;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/**
 * Kubernetes' channel protocol over one WebSocket ({@code v4.channel.k8s.io} and
 * {@code v5.channel.k8s.io}, apimachinery's {@code wsstream}): every binary message starts with one
 * byte naming its channel — 0 stdin, 1 stdout, 2 stderr, 3 error (a {@code Status} JSON, written once
 * at the end), 4 resize ({@code {"Width":w,"Height":h}}). v5 adds the close signal: a message
 * {@code [255, channel]} from the client ends that channel (stdin's end of file, which v4 cannot say).
 *
 * <p>Writes block the calling (pump) thread until the frame is handed to the socket, so a slow client
 * slows the command down instead of filling the kubelet's memory.
 */
final class ChannelStream {
    static final String V5 = "v5.channel.k8s.io";
    static final String V4 = "v4.channel.k8s.io";
    static final int STDIN = 0;
    static final int STDOUT = 1;
    static final int STDERR = 2;
    static final int ERROR = 3;
    static final int RESIZE = 4;
    static final int CLOSE = 255;

    private final ServerWebSocket ws;
    private final StdinWriter writer;
    /** What the client's messages go to, known once the command has started. */
    private final CompletableFuture<Inputs> inputs = new CompletableFuture<>();

    /**
     * The last resize applied or waiting: each resize waits for the one before, so sizes reach the terminal
     * in the order sent. kubectl's attach sends two at once (its size plus one, then its size, so a
     * re-attached screen is redrawn); as separate dependents of {@link #inputs} they ran in reverse order
     * (a {@link CompletableFuture} runs its waiting dependents last-registered first) and the terminal
     * kept the wrong size.
     */
    private CompletableFuture<Inputs> lastResize = inputs;

    private record Inputs(OutputStream stdin, BiConsumer<Integer, Integer> resize, Runnable clientGone) {}

    /**
     * Takes the client's messages from the moment of the upgrade (call on the WebSocket's event loop):
     * a client may send all its input and close before the command has started (fabric8's
     * {@code upload} does, on v4), and a closed WebSocket takes no handler any more. Stdin is queued
     * until {@link #onInput} names the command's stdin.
     */
    ChannelStream(ServerWebSocket ws) {
        this.ws = ws;
        this.writer = new StdinWriter(inputs.thenApply(Inputs::stdin), ws);
        ws.binaryMessageHandler(message -> {
            if (message.length() == 0) {
                return;
            }
            int channel = message.getUnsignedByte(0);
            Buffer data = message.getBuffer(1, message.length());
            switch (channel) {
                case STDIN -> writer.write(data.getBytes());
                case RESIZE -> TerminalSize.parse(data.toString(StandardCharsets.UTF_8))
                        .ifPresent(s -> lastResize = lastResize.thenApply(in -> {
                            in.resize().accept(s[0], s[1]);
                            return in;
                        }));
                case CLOSE -> {
                    if (data.length() > 0 && data.getUnsignedByte(0) == STDIN) {
                        writer.close();
                    }
                }
                default -> {
                    // stdout/stderr/error from a client mean nothing; ignored as wsstream does
                }
            }
        });
        ws.closeHandler(v -> {
            writer.close();
            inputs.thenAccept(in -> in.clientGone().run());
        });
    }

    /**
     * Routes the client's messages: stdin data to {@code stdin} (closed on the v5 close signal or when
     * the connection ends), resize messages to {@code resize}; {@code clientGone} runs when the
     * connection ends.
     */
    void onInput(OutputStream stdin, BiConsumer<Integer, Integer> resize, Runnable clientGone) {
        inputs.complete(new Inputs(stdin, resize, clientGone));
    }

    /** Copies {@code in} to {@code channel} until its end; returns quietly if the client went away. */
    void pump(InputStream in, int channel) {
        byte[] chunk = new byte[32 * 1024];
        try (in) {
            int n;
            while ((n = in.read(chunk)) >= 0) {
                if (n > 0) {
                    Buffer frame =
                            Buffer.buffer(n + 1).appendByte((byte) channel).appendBytes(chunk, 0, n);
                    send(frame);
                }
            }
        } catch (IOException e) {
            // the command's pipe closed under us (it was killed): nothing more to copy
        }
    }

    /** Writes the final {@code Status} on the error channel and closes the connection normally. */
    void finish(String statusJson) {
        // a command that never started has no input: what the client sent is dropped
        inputs.complete(new Inputs(OutputStream.nullOutputStream(), (w, h) -> {}, () -> {}));
        byte[] json = statusJson.getBytes(StandardCharsets.UTF_8);
        send(Buffer.buffer(json.length + 1).appendByte((byte) ERROR).appendBytes(json));
        ws.close((short) 1000);
    }

    /** One frame at a time: the stdout and stderr pumps never have writes in flight together. */
    private synchronized void send(Buffer frame) {
        try {
            ws.writeBinaryMessage(frame)
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // the client is gone or stopped reading for a minute; the close handler aborts the command
            ws.close((short) 1011);
        }
    }

    /** Feeds the command's stdin from a thread of its own (the event loop must never block on a pipe). */
    private static final class StdinWriter {
        private static final int PAUSE_AT = 64;
        private final java.util.concurrent.LinkedBlockingQueue<byte[]> queue =
                new java.util.concurrent.LinkedBlockingQueue<>();
        private final ServerWebSocket ws;
        private final CompletableFuture<OutputStream> target;
        private volatile boolean paused;
        private static final byte[] EOF = new byte[0];

        StdinWriter(CompletableFuture<OutputStream> target, ServerWebSocket ws) {
            this.target = target;
            this.ws = ws;
            Thread t = new Thread(this::run, "exec-stdin");
            t.setDaemon(true);
            t.start();
        }

        void write(byte[] data) {
            queue.add(data);
            if (queue.size() >= PAUSE_AT && !paused) {
                paused = true;
                ws.pause();
            }
        }

        void close() {
            queue.add(EOF);
        }

        private void run() {
            OutputStream stdin;
            try {
                stdin = target.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                return; // never completed exceptionally
            }
            try (stdin) {
                while (true) {
                    byte[] data = queue.take();
                    if (data == EOF) {
                        return;
                    }
                    stdin.write(data);
                    stdin.flush();
                    if (paused && queue.isEmpty()) {
                        paused = false;
                        ws.resume();
                    }
                }
            } catch (IOException e) {
                // the command closed its stdin: later input has nowhere to go
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
