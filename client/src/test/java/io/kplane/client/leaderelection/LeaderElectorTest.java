package io.kplane.client.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.coordination.Lease;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.client.TestPods;
import io.kplane.client.time.Clock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LeaderElectorTest {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LeaderElectorTest.class);
    private static final Duration LEASE = Duration.ofMillis(2000);
    private static final Duration RENEW = Duration.ofMillis(1500);
    private static final Duration RETRY = Duration.ofMillis(200);

    static TestApiServer api;
    static KubeClient client;

    @BeforeAll
    static void start() {
        api = TestApiServer.start();
        client = KubeClient.forServer(api.url());
        TestPods.namespace(client, "leader-test");
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    /** Counts current leaders and remembers whether two ever led at once. */
    static final class Tracker {
        final AtomicInteger leaders = new AtomicInteger();
        final AtomicBoolean overlap = new AtomicBoolean();
        final AtomicInteger elections = new AtomicInteger();

        LeaderCallbacks callbacks(List<String> log, String id) {
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

    private LeaderElector candidate(String lease, String id, Tracker tracker, List<String> log) {
        LeaderElectionConfig config =
                LeaderElectionConfig.defaults("leader-test", lease, id).withTimings(LEASE, RENEW, RETRY);
        return new LeaderElector(client, config, Clock.system(), tracker.callbacks(log, id));
    }

    @Test
    void onlyOneLeadsAndTheOtherTakesOverAfterTheLeaderStops() {
        Tracker tracker = new Tracker();
        List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
        LeaderElector a = candidate("pair", "a", tracker, log);
        a.start();
        await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
        LeaderElector b = candidate("pair", "b", tracker, log);
        b.start();
        // b keeps campaigning for several lease durations without ever winning while a renews
        await().during(Duration.ofMillis(3 * LEASE.toMillis()))
                .atMost(Duration.ofSeconds(10))
                .until(() -> a.isLeader() && !b.isLeader());

        long stoppedAt = System.nanoTime();
        a.stop();
        await().atMost(LEASE.plus(Duration.ofSeconds(2))).until(b::isLeader);
        Duration takeover = Duration.ofNanos(System.nanoTime() - stoppedAt);
        LOG.info("takeover after a graceful stop (lease released): {} ms", takeover.toMillis());
        assertThat(takeover).isLessThan(LEASE);
        assertThat(tracker.overlap).isFalse();
        Lease lease = client.leases().inNamespace("leader-test").get("pair");
        assertThat(lease.spec().holderIdentity()).isEqualTo("b");
        assertThat(lease.spec().leaseTransitions()).isEqualTo(1);
        b.stop();
    }

    @Test
    void threeCandidatesWithRepeatedStopsNeverLeadAtOnce() {
        Tracker tracker = new Tracker();
        List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
        List<LeaderElector> candidates = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            LeaderElector c = candidate("trio", "c" + i, tracker, log);
            candidates.add(c);
            c.start();
        }
        for (int round = 0; round < 4; round++) {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> candidates.stream().anyMatch(LeaderElector::isLeader));
            LeaderElector leader = candidates.stream()
                    .filter(LeaderElector::isLeader)
                    .findFirst()
                    .orElseThrow();
            leader.stop();
            candidates.remove(leader);
            LeaderElector replacement = candidate("trio", "r" + round, tracker, log);
            candidates.add(replacement);
            replacement.start();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> candidates.stream().anyMatch(LeaderElector::isLeader));
        candidates.forEach(LeaderElector::stop);
        assertThat(tracker.overlap).as("two candidates led at once: %s", log).isFalse();
        assertThat(tracker.elections.get()).isEqualTo(5);
    }

    @Test
    void takesOverWithinTheLeaseDurationAfterTheLeaderProcessIsKilled() throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process leader = new ProcessBuilder(
                        javaBin,
                        "-cp",
                        System.getProperty("java.class.path"),
                        LeaderCandidateMain.class.getName(),
                        api.url(),
                        "process-a",
                        Long.toString(LEASE.toMillis()),
                        Long.toString(RENEW.toMillis()),
                        Long.toString(RETRY.toMillis()))
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
            assertThat(firstLine.get(60, TimeUnit.SECONDS)).isEqualTo("LEADING process-a");

            Tracker tracker = new Tracker();
            List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
            LeaderElector b = candidate("candidates", "in-test-b", tracker, log);
            b.start();
            await().during(Duration.ofMillis(LEASE.toMillis() + 500))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !b.isLeader());

            long killedAt = System.nanoTime();
            leader.destroyForcibly();
            leader.waitFor(10, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(10)).until(b::isLeader);
            Duration takeover = Duration.ofNanos(System.nanoTime() - killedAt);
            LOG.info(
                    "takeover after kill -9 of the leader process: {} ms (lease duration {} ms)",
                    takeover.toMillis(),
                    LEASE.toMillis());
            // b must wait a full lease duration after the last renewal it saw, but not much more
            assertThat(takeover).isLessThan(LEASE.plus(RETRY.multipliedBy(3)).plus(Duration.ofMillis(500)));
            b.stop();
        } finally {
            leader.destroyForcibly();
        }
    }
}
