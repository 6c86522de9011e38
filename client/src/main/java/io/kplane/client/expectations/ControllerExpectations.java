package io.kplane.client.expectations;

import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's {@code ControllerExpectations}: a controller that just created or deleted N pods records
 * that it expects to observe N adds/deletes through its informer, and does not sync that key again
 * until it has (the informer cache lags the writes), or until the record is older than the expiry
 * (5 minutes by default, measured on the clock) in case a watch event was lost.
 *
 * <p>Keys without a record are satisfied: a freshly started controller syncs everything.
 */
public final class ControllerExpectations {
    public static final Duration DEFAULT_EXPIRY = Duration.ofMinutes(5);
    private static final Logger log = LoggerFactory.getLogger(ControllerExpectations.class);

    private final Clock clock;
    private final Duration expiry;
    private final ConcurrentHashMap<String, Expectation> byKey = new ConcurrentHashMap<>();

    public ControllerExpectations(Clock clock) {
        this(clock, DEFAULT_EXPIRY);
    }

    public ControllerExpectations(Clock clock, Duration expiry) {
        this.clock = clock;
        this.expiry = expiry;
    }

    private volatile io.kplane.client.lens.Lens lens = io.kplane.client.lens.Lens.NOOP;
    private volatile String controller;

    /**
     * Reports expect/observed/satisfied/expired to {@code lens} as controller {@code controller}, and the
     * number of unfulfilled records as gauge {@code pendingExpectations.<controller>}.
     */
    public void lens(io.kplane.client.lens.Lens lens, String controller) {
        this.lens = lens;
        this.controller = controller;
        lens.registerGauge("pendingExpectations." + controller, this::pending);
    }

    /** Keys whose expectations are not yet fulfilled (expired ones included until the next sync clears them). */
    public int pending() {
        int n = 0;
        for (Expectation e : byKey.values()) {
            if (!e.fulfilled()) {
                n++;
            }
        }
        return n;
    }

    private void report(String type, String key, Expectation e, java.util.Map<String, Object> extra) {
        if (lens.enabled()) {
            java.util.Map<String, Object> detail = new java.util.LinkedHashMap<>();
            if (e != null) {
                detail.put("adds", e.adds.get());
                detail.put("deletes", e.deletes.get());
            }
            if (extra != null) {
                detail.putAll(extra);
            }
            lens.record(io.kplane.client.lens.LensRecord.of(controller, "expectations", type, null, key, null, detail));
        }
    }

    /** Replaces the key's record with fresh expectations, timestamped now. */
    public void setExpectations(String key, long adds, long deletes) {
        Expectation e = new Expectation(adds, deletes, clock.now());
        byKey.put(key, e);
        report("expect", key, e, null);
    }

    public void expectCreations(String key, long adds) {
        setExpectations(key, adds, 0);
    }

    public void expectDeletions(String key, long deletes) {
        setExpectations(key, 0, deletes);
    }

    /** Adds to existing expectations (no-op without a record), keeping its timestamp. */
    public void raiseExpectations(String key, long adds, long deletes) {
        Expectation e = byKey.get(key);
        if (e != null) {
            e.add(adds, deletes);
            report("expect", key, e, java.util.Map.of("raised", true));
        }
    }

    /** Subtracts from existing expectations (no-op without a record), e.g. when a create call failed. */
    public void lowerExpectations(String key, long adds, long deletes) {
        lower(key, adds, deletes, "lowered");
    }

    private void lower(String key, long adds, long deletes, String type) {
        Expectation e = byKey.get(key);
        if (e != null) {
            boolean wasFulfilled = e.fulfilled();
            e.add(-adds, -deletes);
            if (lens.enabled()) {
                report(type, key, e, null);
                if (!wasFulfilled && e.fulfilled()) {
                    report("satisfied", key, e, null);
                }
            }
        }
    }

    /** The informer saw one of the expected creations. */
    public void creationObserved(String key) {
        lower(key, 1, 0, "observed");
    }

    /** The informer saw one of the expected deletions. */
    public void deletionObserved(String key) {
        lower(key, 0, 1, "observed");
    }

    /** True when there is no record, when all expected events were seen, or when the record expired. */
    public boolean satisfiedExpectations(String key) {
        Expectation e = byKey.get(key);
        if (e == null) {
            return true;
        }
        if (e.fulfilled()) {
            return true;
        }
        if (clock.since(e.timestamp).compareTo(expiry) > 0) {
            log.info(
                    "expectations for {} expired after {} (adds {}, deletes {} still expected)",
                    key,
                    expiry,
                    e.adds.get(),
                    e.deletes.get());
            report("expired", key, e, java.util.Map.of("after", expiry.toString()));
            return true;
        }
        return false;
    }

    public void deleteExpectations(String key) {
        byKey.remove(key);
    }

    public Optional<Snapshot> getExpectations(String key) {
        Expectation e = byKey.get(key);
        return e == null ? Optional.empty() : Optional.of(new Snapshot(e.adds.get(), e.deletes.get(), e.timestamp));
    }

    /** A copy of one key's record. */
    public record Snapshot(long adds, long deletes, Instant timestamp) {
        public boolean fulfilled() {
            return adds <= 0 && deletes <= 0;
        }
    }

    private static final class Expectation {
        final AtomicLong adds;
        final AtomicLong deletes;
        final Instant timestamp;

        Expectation(long adds, long deletes, Instant timestamp) {
            this.adds = new AtomicLong(adds);
            this.deletes = new AtomicLong(deletes);
            this.timestamp = timestamp;
        }

        void add(long addDelta, long deleteDelta) {
            adds.addAndGet(addDelta);
            deletes.addAndGet(deleteDelta);
        }

        boolean fulfilled() {
            return adds.get() <= 0 && deletes.get() <= 0;
        }
    }
}
