package io.kplane.client.lens;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/** Carries the running sync's {@link SyncScope} to the threads a sync hands work to. */
public final class SyncScopes {
    private SyncScopes() {}

    /** {@code task}, run with the caller's current sync scope (the writes and events it makes join that sync's record). */
    public static Runnable propagating(Runnable task) {
        SyncScope scope = LensRecorder.CURRENT_SYNC.get();
        if (scope == null) {
            return task;
        }
        return () -> {
            SyncScope previous = LensRecorder.CURRENT_SYNC.get();
            LensRecorder.CURRENT_SYNC.set(scope);
            try {
                task.run();
            } finally {
                if (previous == null) {
                    LensRecorder.CURRENT_SYNC.remove();
                } else {
                    LensRecorder.CURRENT_SYNC.set(previous);
                }
            }
        };
    }

    /** An executor whose tasks run in the submitting sync's scope. */
    public static ExecutorService propagating(ExecutorService delegate) {
        return new AbstractExecutorService() {
            @Override
            public void execute(Runnable command) {
                delegate.execute(propagating(command));
            }

            @Override
            public void shutdown() {
                delegate.shutdown();
            }

            @Override
            public List<Runnable> shutdownNow() {
                return delegate.shutdownNow();
            }

            @Override
            public boolean isShutdown() {
                return delegate.isShutdown();
            }

            @Override
            public boolean isTerminated() {
                return delegate.isTerminated();
            }

            @Override
            public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
                return delegate.awaitTermination(timeout, unit);
            }
        };
    }
}
