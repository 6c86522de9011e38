package io.kplane.client.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.coordination.Lease;
import io.kplane.client.ApiServerFixture;
import io.kplane.client.time.FakeClock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Leader election against a real API server, with the candidates' time on a {@link FakeClock}: every
 * lease duration, renew deadline and retry passes only when the test advances the clock, one retry
 * period at a time and only once every live candidate is asleep again. The retry jitter is fixed at
 * zero, so each bound below is exact in clock time and none depends on how fast the machine is.
 * Kubernetes' default timings (15 s / 10 s / 2 s) cost no wall time.
 */
class LeaderElectorTest {
    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofSeconds(2);
    /** Wall-clock bound for what the machine must do between two steps (HTTP round trips, a JVM start). */
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @RegisterExtension
    static final ApiServerFixture server = ApiServerFixture.withNamespaces("leader-test");

    /** Counts current leaders and remembers whether two ever led at once. */
    static final class Tracker {
        final AtomicInteger leaders = new AtomicInteger();
        final AtomicBoolean overlap = new AtomicBoolean();
        final AtomicInteger elections = new AtomicInteger();
        final List<String> log = Collections.synchronizedList(new ArrayList<>());

        LeaderCallbacks callbacks(String id) {
            return new LeaderCallbacks() {
                @Override
                public void onStartedLeading() {
                    if (leaders.incrementAndGet() > 1) {
                        overlap.set(true);
                    }
                    elections.incrementAndGet();
                    log.add("start " + id);
                }

                @Override
                public void onStoppedLeading() {
                    leaders.decrementAndGet();
                    log.add("stop " + id);
                }
            };
        }
    }

    /** Moves a fake clock one retry period at a time, each step only once all live candidates sleep. */
    private static final class Steps {
        final FakeClock clock = new FakeClock();

        /** Waits (wall clock) until {@code sleepers} candidates are blocked on the clock. */
        void settle(int sleepers) throws InterruptedException {
            assertThat(clock.awaitPendingTimers(sleepers, PATIENCE))
                    .as("%s candidate(s) asleep on the clock", sleepers)
                    .isTrue();
        }

        void step(int sleepers) throws InterruptedException {
            settle(sleepers);
            clock.advance(RETRY);
        }

        /** Steps until {@code done} holds with every candidate asleep; at most {@code limit} of clock time. */
        void stepUntil(int sleepers, Duration limit, BooleanSupplier done) throws InterruptedException {
            Instant start = clock.now();
            while (true) {
                settle(sleepers);
                if (done.getAsBoolean()) {
                    return;
                }
                assertThat(clock.since(start)).as("clock time spent waiting").isLessThan(limit);
                clock.advance(RETRY);
            }
        }
    }

    private static LeaderElector candidate(String lease, String id, Tracker tracker, FakeClock clock) {
        LeaderElectionConfig config =
                LeaderElectionConfig.defaults("leader-test", lease, id).withTimings(LEASE, RENEW, RETRY);
        return new LeaderElector(server.client(), config, clock, tracker.callbacks(id), () -> 0);
    }

    private static Lease lease(String name) {
        return server.client().leases().inNamespace("leader-test").get(name);
    }

    /** A graceful stop releases the lease: its holder identity becomes empty. */
    private static void awaitReleased(String name) {
        await().atMost(PATIENCE)
                .until(() -> Objects.requireNonNullElse(lease(name).spec().holderIdentity(), "")
                        .isEmpty());
    }

    @Test
    void onlyOneLeadsAndTheOtherTakesOverAtItsNextRetryAfterTheLeaderStops() throws Exception {
        Tracker tracker = new Tracker();
        Steps steps = new Steps();
        LeaderElector a = candidate("pair", "a", tracker, steps.clock);
        a.start();
        await().atMost(PATIENCE).until(a::isLeader);
        LeaderElector b = candidate("pair", "b", tracker, steps.clock);
        b.start();
        // b campaigns for three lease durations, looking at the lease every retry, and never wins while a renews
        for (Duration passed = Duration.ZERO;
                passed.compareTo(LEASE.multipliedBy(3)) <= 0;
                passed = passed.plus(RETRY)) {
            steps.step(2);
            steps.settle(2);
            assertThat(a.isLeader()).as("a leads after %s", passed).isTrue();
            assertThat(b.isLeader()).as("b leads after %s", passed).isFalse();
        }

        Instant stoppedAt = steps.clock.now();
        a.stop();
        awaitReleased("pair");
        steps.stepUntil(1, LEASE, b::isLeader);
        // the released lease is free at once: b takes it at its next look, one retry period later
        assertThat(steps.clock.since(stoppedAt)).isEqualTo(RETRY);
        assertThat(tracker.overlap).as("two led at once: %s", tracker.log).isFalse();
        Lease lease = lease("pair");
        assertThat(lease.spec().holderIdentity()).isEqualTo("b");
        assertThat(lease.spec().leaseTransitions()).isEqualTo(1);
        b.stop();
    }

    @Test
    void threeCandidatesWithRepeatedStopsNeverLeadAtOnce() throws Exception {
        Tracker tracker = new Tracker();
        Steps steps = new Steps();
        List<LeaderElector> candidates = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            LeaderElector c = candidate("trio", "c" + i, tracker, steps.clock);
            candidates.add(c);
            c.start();
        }
        for (int round = 0; round < 4; round++) {
            steps.stepUntil(3, LEASE, () -> candidates.stream().anyMatch(LeaderElector::isLeader));
            LeaderElector leader = candidates.stream()
                    .filter(LeaderElector::isLeader)
                    .findFirst()
                    .orElseThrow();
            assertThat(candidates.stream().filter(LeaderElector::isLeader)).hasSize(1);
            int elected = round + 1;
            await().atMost(PATIENCE).until(() -> tracker.elections.get() == elected);
            leader.stop();
            awaitReleased("trio");
            candidates.remove(leader);
            LeaderElector replacement = candidate("trio", "r" + round, tracker, steps.clock);
            candidates.add(replacement);
            replacement.start();
        }
        steps.stepUntil(3, LEASE, () -> candidates.stream().anyMatch(LeaderElector::isLeader));
        // onStartedLeading runs on a thread of its own, started once isLeader() is true: count it before
        // stopping, or the last election may not be in the log yet
        await().atMost(PATIENCE).until(() -> tracker.elections.get() == 5);
        candidates.forEach(LeaderElector::stop);
        assertThat(tracker.overlap)
                .as("two candidates led at once: %s", tracker.log)
                .isFalse();
        assertThat(tracker.elections.get()).as(tracker.log.toString()).isEqualTo(5);
    }

    /**
     * The leader is another process on the wall clock, renewing every 100 ms; the candidate here is on the
     * fake clock. Before each of the candidate's looks the test waits until the leader has renewed, so the
     * candidate always sees a live leader; after kill -9 the lease stops changing and the candidate takes
     * over exactly when it has seen the lease unchanged for a lease duration on its own clock.
     */
    @Test
    void takesOverAfterOneLeaseDurationOfNoChangeWhenTheLeaderProcessIsKilled() throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process leader = new ProcessBuilder(
                        javaBin,
                        "-cp",
                        System.getProperty("java.class.path"),
                        LeaderCandidateMain.class.getName(),
                        server.url(),
                        "process-a",
                        Long.toString(LEASE.toMillis()),
                        Long.toString(RENEW.toMillis()),
                        "100")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(leader.getInputStream(), StandardCharsets.UTF_8));
            CompletableFuture<String> firstLine = CompletableFuture.supplyAsync(() -> {
                try {
                    String line;
                    while ((line = out.readLine()) != null) {
                        if (line.startsWith("LEADING")) {
                            return line;
                        }
                    }
                    return null;
                } catch (java.io.IOException e) {
                    return null;
                }
            });
            assertThat(firstLine.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("LEADING process-a");

            Tracker tracker = new Tracker();
            Steps steps = new Steps();
            LeaderElector b = candidate("candidates", "in-test-b", tracker, steps.clock);
            b.start();
            for (Duration passed = Duration.ZERO;
                    passed.compareTo(LEASE.multipliedBy(2)) <= 0;
                    passed = passed.plus(RETRY)) {
                steps.settle(1);
                Instant seen = lease("candidates").spec().renewTime();
                await().atMost(PATIENCE)
                        .until(() -> !lease("candidates").spec().renewTime().equals(seen));
                steps.clock.advance(RETRY);
                steps.settle(1);
                assertThat(b.isLeader()).as("b leads after %s", passed).isFalse();
            }

            leader.destroyForcibly();
            assertThat(leader.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            Instant killedAt = steps.clock.now();
            steps.stepUntil(1, LEASE.multipliedBy(2), b::isLeader);
            // b last saw the lease change at its look before the kill, or at its first look after it (a
            // renewal that landed between that look and the kill); it takes over at its first look a full
            // lease duration later: 16 s or 18 s with looks every 2 s and a 15 s lease
            assertThat(steps.clock.since(killedAt)).isBetween(LEASE, LEASE.plus(RETRY.multipliedBy(2)));
            assertThat(lease("candidates").spec().holderIdentity()).isEqualTo("in-test-b");
            b.stop();
        } finally {
            leader.destroyForcibly();
        }
    }
}
