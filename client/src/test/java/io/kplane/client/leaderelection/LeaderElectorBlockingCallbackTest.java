package io.kplane.client.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.coordination.Lease;
import io.kplane.client.ApiServerFixture;
import io.kplane.client.time.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * onStartedLeading runs off the election thread: a leader whose start callback blocks for several
 * lease durations (a cache sync on a slow machine) keeps renewing, so no other candidate takes over.
 * Time is a {@link FakeClock}: the lease durations pass in milliseconds, the lease lives in a real API server.
 */
class LeaderElectorBlockingCallbackTest {
    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofSeconds(2);

    @RegisterExtension
    static final ApiServerFixture server = ApiServerFixture.withNamespaces("blocking-test");

    @Test
    void aStartCallbackBlockingLongerThanTheLeaseDoesNotStopRenewalsOrLetAnotherLead() throws Exception {
        FakeClock clock = new FakeClock();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        LeaderElector a = new LeaderElector(server.client(), config("a"), clock, new LeaderCallbacks() {
            @Override
            public void onStartedLeading() {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    interrupted.set(true);
                }
            }

            @Override
            public void onStoppedLeading() {}
        });
        AtomicBoolean bLed = new AtomicBoolean();
        LeaderElector b = new LeaderElector(server.client(), config("b"), clock, new LeaderCallbacks() {
            @Override
            public void onStartedLeading() {
                bLed.set(true);
            }

            @Override
            public void onStoppedLeading() {}
        });
        a.start();
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        b.start();
        Instant firstRenew = lease().spec().renewTime();
        // three lease durations pass while a's callback blocks; each step waits until both candidates sleep
        for (Duration passed = Duration.ZERO;
                passed.compareTo(LEASE.multipliedBy(3)) < 0;
                passed = passed.plus(RETRY)) {
            assertThat(clock.awaitPendingTimers(2, Duration.ofSeconds(30)))
                    .as("both candidates are back asleep (a's election thread is not held by its callback)")
                    .isTrue();
            clock.advance(RETRY);
            assertThat(b.isLeader()).isFalse();
        }
        assertThat(clock.awaitPendingTimers(2, Duration.ofSeconds(30))).isTrue();
        assertThat(a.isLeader()).isTrue();
        assertThat(bLed).isFalse();
        Lease lease = lease();
        assertThat(lease.spec().holderIdentity()).isEqualTo("a");
        assertThat(lease.spec().renewTime()).isAfter(firstRenew.plus(LEASE.multipliedBy(2)));

        // when a steps down, its still-blocked callback is interrupted ("you no longer lead")
        a.stop();
        await().atMost(Duration.ofSeconds(30)).untilTrue(interrupted);
        release.countDown();
        b.stop();
    }

    private static LeaderElectionConfig config(String identity) {
        return LeaderElectionConfig.defaults("blocking-test", "blocking", identity)
                .withTimings(LEASE, RENEW, RETRY);
    }

    private static Lease lease() {
        return server.client().leases().inNamespace("blocking-test").get("blocking");
    }
}
