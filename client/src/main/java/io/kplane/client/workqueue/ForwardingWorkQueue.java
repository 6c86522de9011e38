package io.kplane.client.workqueue;

import java.util.Optional;

/**
 * A queue layered on another: every {@link WorkQueue} operation goes to {@code delegate}, so the
 * delaying and rate-limiting layers only write what they add (as client-go embeds one queue type in
 * the next).
 */
abstract class ForwardingWorkQueue<T, Q extends WorkQueue<T>> implements WorkQueue<T> {
    protected final Q delegate;

    ForwardingWorkQueue(Q delegate) {
        this.delegate = delegate;
    }

    @Override
    public void add(T item) {
        delegate.add(item);
    }

    @Override
    public int len() {
        return delegate.len();
    }

    @Override
    public Optional<T> get() throws InterruptedException {
        return delegate.get();
    }

    @Override
    public void done(T item) {
        delegate.done(item);
    }

    @Override
    public void shutDown() {
        delegate.shutDown();
    }

    @Override
    public void shutDownWithDrain() throws InterruptedException {
        delegate.shutDownWithDrain();
    }

    @Override
    public boolean isShuttingDown() {
        return delegate.isShuttingDown();
    }
}
