package io.kplane.kubelet.runtime;

import io.kplane.client.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Passes an exec's or attached container's terminal sizes on to the engine so that the terminal ends at
 * the last size asked for, on Podman as well.
 *
 * <p>Why the repeat: Podman hands each {@code POST /containers/{id}/resize} (and {@code /exec/{id}/resize})
 * to the container's {@code conmon} as a line {@code "1 HEIGHT WIDTH\n"} written into a FIFO and answers
 * at once. conmon before 2.2.0 (Debian 12 ships 2.1.6) reads that FIFO in chunks and, for every line in a
 * chunk, applies the chunk's <em>first</em> line (containers/conmon commit 2a1dda8, "Fix terminal resize
 * event processing", June 2025). So two resizes that reach the FIFO before conmon next reads it leave the
 * terminal at the first of them. {@code kubectl attach -t} sends exactly such a pair at once (its size
 * plus one, then its size, so that a re-attached program redraws), which is why an attach ended at
 * 46x124 for a 45x123 terminal while resizes sent by hand a moment apart ended right.
 * DockerTerminalResizeTest stops conmon while two resizes are sent to show the engine's side.
 *
 * <p>No answer from the engine says when conmon has read a line, so ordering the calls cannot help.
 * Instead every size is passed on as it comes (kubectl's size-plus-one still makes the program redraw),
 * and the last size asked for is sent again when no other resize has come for each of
 * {@link #RESEND_AFTER}: a repeat reaches conmon after it has read the pair (it reads as soon as it is
 * scheduled), so it is applied on its own. A repeat of the size a terminal already has changes nothing
 * (the kernel signals the program only when the size changes), so on an engine without the bug the
 * repeats are invisible. A new resize starts the repeats over; closing stops them. The quiet periods are
 * wall time ({@link Clock#system()} in the runtime: they are about the engine, not the cluster), and a
 * repeat's engine call runs on {@code calls}, never on the clock's timer thread.
 */
final class DockerTerminalResizer {
    /** Quiet time after the last resize at which it is sent again, each counted from that resize. */
    static final List<Duration> RESEND_AFTER =
            List.of(Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofSeconds(3));

    /** The engine call: {@code POST /containers/{id}/resize} or {@code /exec/{id}/resize}. */
    @FunctionalInterface
    interface EngineResize {
        void resize(int width, int height);
    }

    private final EngineResize engine;
    private final Clock clock;
    private final Executor calls;
    private final List<Duration> resendAfter;

    // guarded by this: the engine calls are made holding it, so sizes reach the engine in order
    private int width;
    private int height;
    private long generation;
    private Clock.Timer pending;
    private boolean closed;

    DockerTerminalResizer(EngineResize engine, Clock clock, Executor calls) {
        this(engine, clock, calls, RESEND_AFTER);
    }

    /** {@code resendAfter}: ascending. */
    DockerTerminalResizer(EngineResize engine, Clock clock, Executor calls, List<Duration> resendAfter) {
        this.engine = engine;
        this.clock = clock;
        this.calls = calls;
        this.resendAfter = List.copyOf(resendAfter);
    }

    /** Passes the size on now and sends it again after each quiet period unless another comes first. */
    synchronized void resize(int width, int height) {
        if (closed) {
            return;
        }
        this.width = width;
        this.height = height;
        generation++;
        engine.resize(width, height);
        scheduleRepeat(generation, 0);
    }

    /** The session ended: no more repeats. */
    synchronized void close() {
        closed = true;
        if (pending != null) {
            pending.cancel();
            pending = null;
        }
    }

    private synchronized void repeat(long forGeneration, int step) {
        if (closed || forGeneration != generation) {
            return; // a newer size has its own repeats
        }
        engine.resize(width, height);
        scheduleRepeat(forGeneration, step + 1);
    }

    private void scheduleRepeat(long forGeneration, int step) {
        if (pending != null) {
            pending.cancel();
            pending = null;
        }
        if (step >= resendAfter.size()) {
            return;
        }
        Duration wait = step == 0 ? resendAfter.get(0) : resendAfter.get(step).minus(resendAfter.get(step - 1));
        pending = clock.schedule(wait, () -> {
            try {
                calls.execute(() -> repeat(forGeneration, step));
            } catch (RejectedExecutionException e) {
                close(); // the runtime is closing
            }
        });
    }
}
