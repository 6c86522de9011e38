package io.kplane.client.informer;

import io.kplane.api.meta.KubeList;
import io.kplane.client.ListOptions;
import io.kplane.client.WatchStream;
import java.util.concurrent.CountDownLatch;

/** Passes calls through, but can hold new watch requests (as if the network to the server were down). */
final class GatedListerWatcher<T> implements ListerWatcher<T> {
    private final ListerWatcher<T> delegate;
    private volatile CountDownLatch gate;

    GatedListerWatcher(ListerWatcher<T> delegate) {
        this.delegate = delegate;
    }

    void close() {
        gate = new CountDownLatch(1);
    }

    void open() {
        CountDownLatch g = gate;
        gate = null;
        if (g != null) {
            g.countDown();
        }
    }

    @Override
    public KubeList<T> list(ListOptions options) {
        return delegate.list(options);
    }

    @Override
    public WatchStream<T> watch(ListOptions options) {
        CountDownLatch g = gate;
        if (g != null) {
            try {
                g.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new io.kplane.client.KubeClientException("interrupted", e);
            }
        }
        return delegate.watch(options);
    }
}
