package io.kplane.client.informer;

import io.kplane.api.core.Pod;
import io.kplane.api.meta.KubeList;
import io.kplane.api.meta.ListMeta;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.Status;
import io.kplane.api.meta.WatchEvent;
import io.kplane.client.ApiConnectionException;
import io.kplane.client.ApiException;
import io.kplane.client.ListOptions;
import io.kplane.client.WatchStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** An in-memory list/watch source with a revision log, compaction and breakable watches, for reflector unit tests. */
final class FakeListerWatcher implements ListerWatcher<Pod> {
    private final TreeMap<String, Pod> state = new TreeMap<>();
    private final List<WatchEvent<Pod>> log = new ArrayList<>();
    private final List<Stream> open = new CopyOnWriteArrayList<>();
    final AtomicInteger lists = new AtomicInteger();
    final List<ListOptions> watchRequests = new CopyOnWriteArrayList<>();
    private long revision;
    private long compactedThrough;
    private boolean paused;

    synchronized Pod put(String name, Map<String, String> labels) {
        boolean exists = state.containsKey("ns/" + name);
        Pod pod = new Pod(
                null,
                null,
                ObjectMeta.named("ns", name).withLabels(labels).withResourceVersion(Long.toString(++revision)),
                null,
                null);
        state.put(pod.key(), pod);
        log.add(new WatchEvent<>(exists ? WatchEvent.MODIFIED : WatchEvent.ADDED, pod));
        notifyAll();
        return pod;
    }

    synchronized void remove(String name) {
        Pod old = state.remove("ns/" + name);
        Pod gone = old.withMetadata(old.metadata().withResourceVersion(Long.toString(++revision)));
        log.add(new WatchEvent<>(WatchEvent.DELETED, gone));
        notifyAll();
    }

    /** Watches stop delivering (as if the connection hung) until resumed or broken. */
    synchronized void pause() {
        paused = true;
    }

    /** Forgets the log: watches from older revisions get 410. */
    synchronized void compact() {
        compactedThrough = revision;
    }

    /** Breaks every open watch with a connection error, and resumes delivery for new ones. */
    void breakWatches() {
        synchronized (this) {
            paused = false;
        }
        open.forEach(Stream::breakIt);
    }

    synchronized Map<String, Pod> snapshot() {
        return Map.copyOf(state);
    }

    @Override
    public synchronized KubeList<Pod> list(ListOptions options) {
        if (options.continueToken() == null) {
            lists.incrementAndGet();
        }
        List<Pod> all = new ArrayList<>(state.values());
        int from = options.continueToken() == null
                ? 0
                : Integer.parseInt(options.continueToken().split(":")[1]);
        String rv = options.continueToken() == null
                ? Long.toString(revision)
                : options.continueToken().split(":")[0];
        int to = options.limit() == null ? all.size() : (int) Math.min(all.size(), from + options.limit());
        String next = to < all.size() ? rv + ":" + to : null;
        return new KubeList<>("v1", "PodList", new ListMeta(rv, next, null), all.subList(from, to));
    }

    @Override
    public synchronized WatchStream<Pod> watch(ListOptions options) {
        watchRequests.add(options);
        long from = Long.parseLong(options.resourceVersion());
        if (from < compactedThrough) {
            throw new ApiException(
                    410,
                    "Expired",
                    "too old resource version: " + from,
                    Status.failure(410, "Expired", "too old resource version", null));
        }
        Stream stream = new Stream(from);
        open.add(stream);
        return stream;
    }

    private final class Stream implements WatchStream<Pod> {
        private long position;
        private boolean closed;
        private boolean broken;

        Stream(long from) {
            this.position = from;
        }

        @Override
        public WatchEvent<Pod> next() {
            synchronized (FakeListerWatcher.this) {
                while (true) {
                    if (broken) {
                        throw new ApiConnectionException("fake://watch", new java.io.IOException("connection reset"));
                    }
                    if (closed) {
                        return null;
                    }
                    if (!paused) {
                        for (WatchEvent<Pod> event : log) {
                            long rv = Long.parseLong(event.object().metadata().resourceVersion());
                            if (rv > position) {
                                position = rv;
                                return event;
                            }
                        }
                    }
                    try {
                        FakeListerWatcher.this.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return null;
                    }
                }
            }
        }

        void breakIt() {
            synchronized (FakeListerWatcher.this) {
                broken = true;
                FakeListerWatcher.this.notifyAll();
            }
        }

        @Override
        public void close() {
            synchronized (FakeListerWatcher.this) {
                closed = true;
                open.remove(this);
                FakeListerWatcher.this.notifyAll();
            }
        }
    }
}
