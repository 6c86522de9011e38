package io.kplane.client.leaderelection;

import io.kplane.api.coordination.Lease;
import io.kplane.api.coordination.LeaseSpec;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.KubeClientException;
import io.kplane.client.ResourceClient;
import io.kplane.client.retry.CappedDoublingBackoff;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a coordination.k8s.io/v1 Lease, after client-go's {@code leaderelection}: candidates
 * try to create or take over the Lease, always writing with the resourceVersion they read (a concurrent
 * writer gets 409 Conflict and loses the round). A Lease held by someone else can be taken over only once
 * this candidate has seen it unchanged for {@code leaseDuration} on its own clock (no clock-skew
 * assumptions). The leader renews every {@code retryPeriod} and steps down if it could not renew within
 * {@code renewDeadline}, which is shorter than {@code leaseDuration}: so two candidates never lead at once.
 */
public final class LeaderElector {
    private static final Logger log = LoggerFactory.getLogger(LeaderElector.class);

    private final ResourceClient<Lease> leases;
    private final LeaderElectionConfig config;
    private final Clock clock;
    private final LeaderCallbacks callbacks;
    /** A number in [0, 1) per retry: how much of the 20% jitter to add (random; tests fix it). */
    private final DoubleSupplier jitterFraction;

    private volatile boolean stopped;
    private volatile boolean leading;
    private volatile Thread runner;
    /** Runs onStartedLeading while this candidate leads. */
    private volatile Thread leaderWork;

    /** Why this candidate does not lead, as of its last attempt (for a component's /healthz). */
    private volatile String standbyReason = "not campaigned yet";

    /** Set while the last attempt could not read the lease at all (the API server unreachable or not ready). */
    private volatile boolean unreachable;

    private final CappedDoublingBackoff unreachableRetry;
    private Lease observed;
    private Instant observedTime;
    private String reportedLeader;

    public LeaderElector(KubeClient client, LeaderElectionConfig config, Clock clock, LeaderCallbacks callbacks) {
        this(client, config, clock, callbacks, () -> ThreadLocalRandom.current().nextDouble());
    }

    /**
     * With the retry jitter given by {@code jitterFraction}: tests on a {@code FakeClock} pass a constant so
     * every wait is exactly as long as the test expects; every sleep and timeout is already on {@code clock}.
     */
    LeaderElector(
            KubeClient client,
            LeaderElectionConfig config,
            Clock clock,
            LeaderCallbacks callbacks,
            DoubleSupplier jitterFraction) {
        this.leases = client.leases().inNamespace(config.namespace());
        this.config = config;
        this.clock = clock;
        this.callbacks = callbacks;
        this.jitterFraction = jitterFraction;
        this.unreachableRetry = new CappedDoublingBackoff(config.retryPeriod());
    }

    /**
     * Campaigns until elected, leads until leadership is lost or {@link #stop()} is called, then returns.
     * Call again to campaign again.
     */
    public void run() throws InterruptedException {
        runner = Thread.currentThread();
        try {
            if (!acquire()) {
                return;
            }
            leading = true;
            log.info("{} became leader of lease {}/{}", config.identity(), config.namespace(), config.leaseName());
            // As client-go does (go OnStartedLeading(ctx)): the callback may take long (waiting for caches
            // to sync), and the lease must be renewed meanwhile, or another candidate takes it over while
            // this one goes on to start its workers.
            leaderWork = startCallback();
            renewUntilLost();
        } finally {
            boolean wasLeading = leading;
            leading = false;
            runner = null;
            Thread work = leaderWork;
            leaderWork = null;
            if (work != null) {
                // the callback's "context is cancelled": it must not go on to act for a lost leadership
                work.interrupt();
            }
            if (wasLeading) {
                log.info("{} stopped leading lease {}/{}", config.identity(), config.namespace(), config.leaseName());
                // Stop acting before the lease can pass to someone else.
                callbacks.onStoppedLeading();
                if (stopped && config.releaseOnStop()) {
                    // stop() may have interrupted us mid-call; the release request must not see that interrupt
                    boolean interrupted = Thread.interrupted();
                    release();
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }
    }

    /**
     * Runs {@link LeaderCallbacks#onStartedLeading()} on its own daemon thread. The thread is interrupted
     * when leadership ends; callbacks that wait must treat the interrupt as "stop, you no longer lead".
     */
    private Thread startCallback() {
        Thread thread = DaemonThreads.newThread("leading-" + config.leaseName(), () -> {
            try {
                callbacks.onStartedLeading();
            } catch (RuntimeException e) {
                log.error(
                        "{}: onStartedLeading of lease {}/{} failed",
                        config.identity(),
                        config.namespace(),
                        config.leaseName(),
                        e);
            }
        });
        thread.start();
        return thread;
    }

    /** Runs {@link #run()} on a daemon thread named after the lease. */
    public Thread start() {
        Thread thread = DaemonThreads.newThread("leader-election-" + config.leaseName(), () -> {
            try {
                run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        thread.start();
        return thread;
    }

    /** Stops campaigning or leading; a leader releases the lease (if configured) so others take over at once. */
    public void stop() {
        stopped = true;
        Thread thread = runner;
        if (thread != null) {
            thread.interrupt();
        }
    }

    public boolean isLeader() {
        return leading;
    }

    public String identity() {
        return config.identity();
    }

    /**
     * Why this candidate is not the leader, from its last attempt: the lease held by another candidate,
     * or the API server unreachable or refusing the lease write (with its error). Empty while leading.
     */
    public String standbyReason() {
        return leading ? "" : standbyReason;
    }

    private String lease() {
        return "lease " + config.namespace() + "/" + config.leaseName();
    }

    private boolean acquire() throws InterruptedException {
        while (!stopped) {
            if (tryAcquireOrRenew()) {
                return true;
            }
            sleepQuietly(unreachable ? unreachableRetry.next() : jitter(config.retryPeriod()));
        }
        return false;
    }

    private void renewUntilLost() throws InterruptedException {
        Instant lastRenew = clock.now();
        while (!stopped) {
            sleepQuietly(config.retryPeriod());
            if (stopped) {
                return;
            }
            if (tryAcquireOrRenew()) {
                lastRenew = clock.now();
                continue;
            }
            if (clock.since(lastRenew).compareTo(config.renewDeadline()) >= 0) {
                log.warn(
                        "{} failed to renew lease {}/{} within {}; stepping down",
                        config.identity(),
                        config.namespace(),
                        config.leaseName(),
                        config.renewDeadline());
                return;
            }
            if (observed != null && !config.identity().equals(holder(observed))) {
                log.warn(
                        "{} lost lease {}/{} to {}",
                        config.identity(),
                        config.namespace(),
                        config.leaseName(),
                        holder(observed));
                return;
            }
        }
    }

    /** One round: create the lease, renew it, or take it over if expired. True if this candidate holds it now. */
    boolean tryAcquireOrRenew() {
        Instant now = clock.now();
        Lease current;
        try {
            current = leases.find(config.leaseName()).orElse(null);
        } catch (KubeClientException e) {
            String reason = "cannot read " + lease() + ": " + e.getMessage();
            // quietly while it stays the same: an API server that is still starting is retried every few
            // hundred milliseconds, and one line says so
            if (!unreachable || !reason.equals(standbyReason)) {
                log.warn(
                        "{} cannot read lease {}/{}: {}",
                        config.identity(),
                        config.namespace(),
                        config.leaseName(),
                        e.getMessage());
            }
            standbyReason = reason;
            unreachable = true;
            return false;
        }
        if (unreachable) {
            unreachable = false;
            unreachableRetry.reset();
        }
        if (current == null) {
            Lease fresh =
                    new Lease(null, null, ObjectMeta.named(config.namespace(), config.leaseName()), spec(now, now, 0));
            try {
                observe(leases.create(fresh), now);
                return true;
            } catch (KubeClientException e) {
                standbyReason = "could not create " + lease() + ": " + e.getMessage();
                log.info(
                        "{} could not create lease {}/{}: {}",
                        config.identity(),
                        config.namespace(),
                        config.leaseName(),
                        e.getMessage());
                return false;
            }
        }
        observe(current, now);
        String holder = holder(current);
        boolean mine = config.identity().equals(holder);
        if (!mine
                && holder != null
                && !holder.isEmpty()
                && observedTime.plus(leaseDuration(current)).isAfter(now)) {
            standbyReason = lease() + " is held by " + holder;
            return false;
        }
        LeaseSpec old = current.spec();
        int transitions = old == null || old.leaseTransitions() == null ? 0 : old.leaseTransitions();
        LeaseSpec next = mine
                ? spec(old.acquireTime() == null ? now : old.acquireTime(), now, transitions)
                : spec(now, now, transitions + 1);
        try {
            Lease updated = leases.update(current.withSpec(next));
            observe(updated, now);
            return true;
        } catch (ApiException e) {
            standbyReason = "could not update " + lease() + ": " + e.getMessage();
            if (!e.isConflict()) {
                log.warn(
                        "{} could not update lease {}/{}: {}",
                        config.identity(),
                        config.namespace(),
                        config.leaseName(),
                        e.getMessage());
            }
            return false;
        } catch (KubeClientException e) {
            standbyReason = "could not update " + lease() + ": " + e.getMessage();
            log.warn(
                    "{} could not update lease {}/{}: {}",
                    config.identity(),
                    config.namespace(),
                    config.leaseName(),
                    e.getMessage());
            return false;
        }
    }

    private void release() {
        try {
            Lease current = leases.find(config.leaseName()).orElse(null);
            if (current == null || !config.identity().equals(holder(current))) {
                return;
            }
            LeaseSpec old = current.spec();
            Instant now = micro(clock.now());
            LeaseSpec released =
                    new LeaseSpec("", 1, now, now, old.leaseTransitions(), old.strategy(), old.preferredHolder());
            leases.update(current.withSpec(released));
            log.info("{} released lease {}/{}", config.identity(), config.namespace(), config.leaseName());
        } catch (KubeClientException e) {
            log.warn(
                    "{} could not release lease {}/{}: {}",
                    config.identity(),
                    config.namespace(),
                    config.leaseName(),
                    e.getMessage());
        }
    }

    /** Records when the lease record last changed, as seen on this candidate's clock. */
    private void observe(Lease lease, Instant now) {
        if (observed == null || !Objects.equals(observed.spec(), lease.spec())) {
            observedTime = now;
        }
        observed = lease;
        String holder = holder(lease);
        if (holder != null && !holder.isEmpty() && !holder.equals(reportedLeader)) {
            reportedLeader = holder;
            try {
                callbacks.onNewLeader(holder);
            } catch (RuntimeException e) {
                log.warn("onNewLeader callback failed", e);
            }
        }
    }

    private LeaseSpec spec(Instant acquire, Instant renew, int transitions) {
        return new LeaseSpec(
                config.identity(),
                (int) config.leaseDuration().toSeconds() == 0
                        ? 1
                        : (int) Math.max(1, Math.ceil(config.leaseDuration().toMillis() / 1000.0)),
                micro(acquire),
                micro(renew),
                transitions,
                null,
                null);
    }

    /** The lease duration the holder announced (whole seconds), or ours if it announced none. */
    private Duration leaseDuration(Lease lease) {
        Integer seconds = lease.spec() == null ? null : lease.spec().leaseDurationSeconds();
        Duration mine = config.leaseDuration();
        if (seconds == null || seconds <= 0) {
            return mine;
        }
        // Our own (possibly sub-second) duration is more precise when it rounds to what the holder wrote.
        return Math.ceil(mine.toMillis() / 1000.0) == seconds ? mine : Duration.ofSeconds(seconds);
    }

    private static String holder(Lease lease) {
        return lease.spec() == null ? null : lease.spec().holderIdentity();
    }

    private static Instant micro(Instant t) {
        return t.truncatedTo(ChronoUnit.MICROS);
    }

    private Duration jitter(Duration d) {
        return Duration.ofNanos((long) (d.toNanos() * (1 + 0.2 * jitterFraction.getAsDouble())));
    }

    private void sleepQuietly(Duration d) throws InterruptedException {
        try {
            clock.sleep(d);
        } catch (InterruptedException e) {
            if (!stopped) {
                throw e;
            }
        }
    }
}
