package io.kplane.controllers.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.controllers.testing.ControllerJvm;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM on real controller processes with leader election: a standby (which never led) exits at once
 * with 0, and a leader gives its lease back on the way out (client-go's {@code ReleaseOnCancel}), so a
 * standby leads long before the lease (60 s here) could have expired.
 */
class ControllerShutdownTest {
    private static final String LEASE = "slow-start";
    private static TestApiServer api;

    @BeforeAll
    static void start() {
        api = TestApiServer.start();
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    /** A controller process ({@link SlowStartControllerMain}, no start delay) with a 60 s lease. */
    static ControllerJvm replica() throws IOException {
        return replica(api.url(), "60s", "40s");
    }

    /** {@link SlowStartControllerMain} with no start delay, retry period 300 ms. */
    static ControllerJvm replica(String server, String leaseDuration, String renewDeadline) throws IOException {
        return ControllerJvm.start(
                List.of("-Xmx128m"), SlowStartControllerMain.class, server, "0", leaseDuration, renewDeadline, "300ms");
    }

    private static String holder(KubeClient client) {
        return client.leases()
                .inNamespace("default")
                .find(LEASE)
                .map(l -> l.spec().holderIdentity())
                .orElse(null);
    }

    @Test
    void aStandbyExitsPromptlyAndALeaderHandsTheLeaseOver() throws Exception {
        KubeClient client = KubeClient.forServer(api.url());
        try (ControllerJvm leader = replica()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> leader.printed("WORKERS-START"));
            String leaderIdentity = holder(client);
            assertThat(leaderIdentity).isNotEmpty();

            try (ControllerJvm standby = replica()) {
                // it campaigns (its startup line is logged right before the election starts)
                await().atMost(Duration.ofSeconds(60)).until(() -> standby.printed("slow-start starting"));
                standby.terminate();
                assertThat(standby.process().waitFor(30, TimeUnit.SECONDS))
                        .as("a standby exits on SIGTERM (it never led); output: %s", standby.lines())
                        .isTrue();
                assertThat(standby.process().exitValue()).isZero();
                assertThat(standby.printed("WORKERS-START")).isFalse();
            }
            assertThat(holder(client)).isEqualTo(leaderIdentity);

            try (ControllerJvm next = replica()) {
                await().atMost(Duration.ofSeconds(60)).until(() -> next.printed("slow-start starting"));
                long terminated = System.nanoTime();
                leader.terminate();
                assertThat(leader.process().waitFor(30, TimeUnit.SECONDS))
                        .as("the leader exits on SIGTERM; output: %s", leader.lines())
                        .isTrue();
                assertThat(leader.process().exitValue()).isZero();
                assertThat(leader.printed("WORKERS-STOP")).isTrue();
                assertThat(leader.printed("released lease")).isTrue();
                // the 60 s lease was given back: the standby leads well before it could have expired
                await().atMost(Duration.ofSeconds(40)).until(() -> next.printed("WORKERS-START"));
                assertThat(Duration.ofNanos(System.nanoTime() - terminated)).isLessThan(Duration.ofSeconds(45));
                assertThat(holder(client)).isNotEqualTo(leaderIdentity).isNotEmpty();
            }
        }
    }
}
