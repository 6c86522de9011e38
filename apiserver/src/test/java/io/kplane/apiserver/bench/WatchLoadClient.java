package io.kplane.apiserver.bench;

import io.kplane.api.util.DaemonThreads;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The load side of the watch latency benchmark, run in its own JVM so that it does not share the
 * server's heap, GC pauses or threads. Opens {@code --watchers} watch streams (plain NIO sockets on
 * one selector thread; a line is never parsed, the event's {@code "name":"w-<n>"} is found by a byte
 * state machine), then creates objects named {@code w-<n>} at exactly {@code --rate} per second
 * (open loop: each write is sent when due, whether or not earlier ones were answered), after
 * {@code --warmup-seconds} (3) of the same load that is not measured.
 *
 * <p>Latency of one delivery = time the watcher read the line − time the write's response arrived
 * (0 when the event beat the response). Both are {@link System#nanoTime()} of this process. Prints a
 * human line and a {@code RESULT} line that {@link ApiServerBenchmark} reads.
 *
 * <p>Run: {@code java -cp <apiserver test classpath> io.kplane.apiserver.bench.WatchLoadClient
 * --watch-url URL --post-url URL [--watchers 100] [--rate 1000] [--seconds 10]}.
 */
public final class WatchLoadClient {
    private static final String BODY = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s-%d\","
            + "\"labels\":{\"app\":\"bench\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\","
            + "\"command\":[\"sleep\",\"1\"]}],\"restartPolicy\":\"Never\"}}";

    public static void main(String[] args) throws Exception {
        URI watchUrl = URI.create(Args.string(args, "--watch-url", null));
        URI postUrl = URI.create(Args.string(args, "--post-url", null));
        int watchers = Args.integer(args, "--watchers", 100);
        int rate = Args.integer(args, "--rate", 1000);
        int seconds = Args.integer(args, "--seconds", 10);
        String label = Args.string(args, "--label", "watch");
        int warmupSeconds = Args.integer(args, "--warmup-seconds", 3);
        int total = rate * seconds;

        // index 0 is the marker write: measuring starts once every watcher has seen it
        long[] ackNanos = new long[total + 1];
        Streams streams = new Streams(watchers, total + 1);
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        HttpClient http = vertx.createHttpClient(
                new HttpClientOptions().setTcpNoDelay(true).setKeepAlive(true), new PoolOptions().setHttp1MaxSize(64));
        Context context = vertx.getOrCreateContext();
        try {
            streams.open(watchUrl);
            Thread reader = DaemonThreads.newThread("watch-streams", streams::readLoop);
            reader.start();
            AtomicLong failed = new AtomicLong();
            AtomicLong acked = new AtomicLong();
            // the server runs for days: its JIT-compiled steady state is what is measured, so the same
            // load runs unmeasured first (objects named warm-<n>, which the scan does not match)
            long warmStart = System.nanoTime();
            long period = 1_000_000_000L / rate;
            for (int i = 0; i < rate * warmupSeconds; i++) {
                pace(warmStart + i * period);
                int n = i;
                context.runOnContext(v -> http.request(new RequestOptions()
                                .setMethod(HttpMethod.POST)
                                .setHost(postUrl.getHost())
                                .setPort(postUrl.getPort())
                                .setURI(postUrl.getRawPath())
                                .putHeader("Content-Type", "application/json"))
                        .compose(request -> request.send(String.format(BODY, "warm", n)))
                        .compose(response -> response.body()));
            }
            post(context, http, postUrl, 0, ackNanos, acked, failed);
            if (!streams.awaitAll(0, TimeUnit.SECONDS.toNanos(60))) {
                System.out.printf(
                        "%s: watchers did not all see the marker write (%d failed writes)%n", label, failed.get());
                System.out.println("RESULT fail");
                return;
            }
            long start = System.nanoTime();
            long late = 0;
            for (int i = 1; i <= total; i++) {
                if (pace(start + (i - 1) * period)) {
                    late++;
                }
                post(context, http, postUrl, i, ackNanos, acked, failed);
            }
            double issueSeconds = (System.nanoTime() - start) / 1e9;
            // wait for answers and deliveries; stop when nothing has arrived for 5 s
            long lastProgress = System.nanoTime();
            long seen = -1;
            // writes are answered (and events ordered) by commit, not by index: count, don't look at the last index
            long expected = (long) watchers * (total + 1);
            while (acked.get() + failed.get() < total + 1 || streams.delivered() < expected) {
                long now = streams.delivered() + acked.get();
                if (now != seen) {
                    seen = now;
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(5)) {
                    System.out.printf(
                            "%s: gave up waiting: %d of %d writes answered, %d of %d deliveries%n",
                            label, acked.get() + failed.get(), total + 1, streams.delivered(), expected);
                    break;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            report(label, watchers, total, issueSeconds, late, failed.get(), ackNanos, streams);
        } finally {
            streams.close();
            vertx.close().await(10, TimeUnit.SECONDS);
        }
    }

    /** Waits until {@code due}; true if it was already more than 1 ms past. */
    private static boolean pace(long due) {
        long wait = due - System.nanoTime();
        if (wait > 0) {
            LockSupport.parkNanos(wait);
        }
        return wait < -1_000_000;
    }

    /**
     * Sends one create from the client's event loop: issued from the pacing thread itself, Vert.x
     * could complete a response before its body handler was attached, and the answer was lost.
     */
    private static void post(
            Context context,
            HttpClient http,
            URI url,
            int index,
            long[] ackNanos,
            AtomicLong acked,
            AtomicLong failed) {
        context.runOnContext(v -> post(http, url, index, ackNanos, acked, failed));
    }

    private static void post(
            HttpClient http, URI url, int index, long[] ackNanos, AtomicLong acked, AtomicLong failed) {
        Buffer body = Buffer.buffer(String.format(BODY, "w", index));
        http.request(new RequestOptions()
                        .setMethod(HttpMethod.POST)
                        .setHost(url.getHost())
                        .setPort(url.getPort())
                        .setURI(url.getRawPath())
                        .putHeader("Content-Type", "application/json"))
                .compose(request -> request.send(body))
                .compose(response -> response.body().map(b -> response.statusCode()))
                .onComplete(ar -> {
                    if (ar.succeeded() && ar.result() == 201) {
                        ackNanos[index] = System.nanoTime();
                        acked.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                    }
                });
    }

    private static void report(
            String label,
            int watchers,
            int total,
            double issueSeconds,
            long late,
            long failedWrites,
            long[] ackNanos,
            Streams streams) {
        long[] latencies = new long[watchers * total];
        int n = 0;
        for (long[] received : streams.received) {
            for (int i = 1; i <= total; i++) {
                if (received[i] != 0 && ackNanos[i] != 0) {
                    latencies[n++] = Math.max(0, received[i] - ackNanos[i]);
                }
            }
        }
        long expected = (long) watchers * total;
        if (n < expected) {
            int watchersMissing = 0;
            java.util.BitSet writesMissing = new java.util.BitSet();
            for (long[] received : streams.received) {
                boolean any = false;
                for (int i = 1; i <= total; i++) {
                    if (received[i] == 0 || ackNanos[i] == 0) {
                        any = true;
                        writesMissing.set(i);
                    }
                }
                watchersMissing += any ? 1 : 0;
            }
            System.out.printf(
                    "%s: %d watchers missed events, %d writes not seen by all (first %d, last %d)%n",
                    label,
                    watchersMissing,
                    writesMissing.cardinality(),
                    writesMissing.nextSetBit(0),
                    writesMissing.previousSetBit(total));
        }
        long[] sorted = Arrays.copyOf(latencies, n);
        Arrays.sort(sorted);
        double p50 = n == 0 ? Double.NaN : sorted[n / 2] / 1e6;
        double p99 = n == 0 ? Double.NaN : sorted[(int) Math.min(n - 1, (long) n * 99 / 100)] / 1e6;
        double max = n == 0 ? Double.NaN : sorted[n - 1] / 1e6;
        long bytesPerDelivery = streams.delivered() == 0 ? 0 : streams.bytes / streams.delivered();
        System.out.printf(
                "%-6s %4d watchers %5d writes/s (sent %5.0f/s, %d late >1ms, %d failed): "
                        + "p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms  delivered %d/%d%s%n",
                label,
                watchers,
                total / Math.max(1, (int) Math.round(issueSeconds)),
                total / issueSeconds,
                late,
                failedWrites,
                p50,
                p99,
                max,
                n,
                expected,
                n < expected ? " (" + (expected - n) + " MISSING)" : "");
        System.out.printf("RESULT %d %d %.3f %.3f %.3f %d%n", n, expected, p50, p99, max, bytesPerDelivery);
    }

    /** The watch sockets, read by one selector thread. */
    private static final class Streams {
        private static final byte[] MARKER = "\"name\":\"w-".getBytes(StandardCharsets.US_ASCII);
        final long[][] received;
        private final SocketChannel[] channels;
        private final int[] matched; // bytes of MARKER matched so far, MARKER.length = reading digits
        private final int[] value;
        private final AtomicLong[] counts;
        private final Selector selector;
        private volatile boolean closed;
        volatile long bytes;

        Streams(int watchers, int slots) throws IOException {
            received = new long[watchers][slots];
            channels = new SocketChannel[watchers];
            matched = new int[watchers];
            value = new int[watchers];
            counts = new AtomicLong[watchers];
            selector = Selector.open();
        }

        void open(URI url) throws IOException {
            String request = "GET " + url.getRawPath() + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery())
                    + " HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort()
                    + "\r\nAccept: application/json\r\n\r\n";
            for (int w = 0; w < channels.length; w++) {
                SocketChannel channel = SocketChannel.open(new InetSocketAddress(url.getHost(), url.getPort()));
                channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
                channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
                channel.configureBlocking(false);
                channel.register(selector, SelectionKey.OP_READ, w);
                channels[w] = channel;
                counts[w] = new AtomicLong();
            }
        }

        void readLoop() {
            ByteBuffer buffer = ByteBuffer.allocateDirect(256 * 1024);
            byte[] bytesRead = new byte[256 * 1024];
            long total = 0;
            try {
                while (!closed) {
                    selector.select();
                    for (SelectionKey key : selector.selectedKeys()) {
                        int w = (Integer) key.attachment();
                        buffer.clear();
                        int read = ((SocketChannel) key.channel()).read(buffer);
                        if (read < 0) {
                            key.cancel();
                            continue;
                        }
                        long now = System.nanoTime();
                        buffer.flip();
                        buffer.get(bytesRead, 0, read);
                        total += read;
                        scan(w, bytesRead, read, now);
                    }
                    selector.selectedKeys().clear();
                    bytes = total;
                }
            } catch (IOException | java.nio.channels.ClosedSelectorException e) {
                if (!closed) {
                    System.out.println("watch reader failed: " + e);
                }
            }
        }

        /** Finds {@code "name":"w-<digits>"} across reads without allocating or parsing lines. */
        private void scan(int w, byte[] data, int length, long now) {
            int m = matched[w];
            int v = value[w];
            long[] mine = received[w];
            for (int i = 0; i < length; i++) {
                byte b = data[i];
                if (m == MARKER.length) {
                    if (b >= '0' && b <= '9') {
                        v = v * 10 + (b - '0');
                        continue;
                    }
                    if (b == '"' && v < mine.length && mine[v] == 0) {
                        mine[v] = now;
                        counts[w].incrementAndGet();
                    }
                    m = 0;
                    v = 0;
                }
                if (b == MARKER[m]) {
                    m++;
                } else {
                    m = b == MARKER[0] ? 1 : 0;
                }
            }
            matched[w] = m;
            value[w] = v;
        }

        boolean awaitAll(int index, long timeoutNanos) {
            long deadline = System.nanoTime() + timeoutNanos;
            do {
                boolean all = true;
                for (long[] mine : received) {
                    all &= mine[index] != 0;
                }
                if (all) {
                    return true;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            } while (System.nanoTime() < deadline);
            return false;
        }

        long delivered() {
            long sum = 0;
            for (AtomicLong c : counts) {
                sum += c.get();
            }
            return sum;
        }

        void close() throws IOException {
            closed = true;
            selector.close();
            for (SocketChannel c : channels) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }

    /** {@code --name value} command-line arguments. */
    static final class Args {
        private Args() {}

        static String string(String[] args, String name, String dflt) {
            for (int i = 0; i < args.length - 1; i++) {
                if (args[i].equals(name)) {
                    return args[i + 1];
                }
            }
            return dflt;
        }

        static int integer(String[] args, String name, int dflt) {
            String v = string(args, name, null);
            return v == null ? dflt : Integer.parseInt(v);
        }
    }
}
