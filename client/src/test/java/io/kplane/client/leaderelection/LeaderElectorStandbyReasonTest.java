package io.kplane.client.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.client.TestPods;
import io.kplane.client.time.Clock;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A candidate that does not lead says why (for its component's {@code /healthz?verbose}). */
class LeaderElectorStandbyReasonTest {
    private static final Duration LEASE = Duration.ofSeconds(2);

    private static LeaderElector candidate(KubeClient client, String id) {
        LeaderElectionConfig config = LeaderElectionConfig.defaults("standby-test", "reason", id)
                .withTimings(LEASE, Duration.ofMillis(1500), Duration.ofMillis(200));
        return new LeaderElector(client, config, Clock.system(), new LeaderCallbacks() {
            @Override
            public void onStartedLeading() {}

            @Override
            public void onStoppedLeading() {}
        });
    }

    @Test
    void namesTheHolderWhileAnotherCandidateLeads() {
        try (TestApiServer api = TestApiServer.start()) {
            KubeClient client = KubeClient.forServer(api.url());
            TestPods.namespace(client, "standby-test");
            LeaderElector a = candidate(client, "a");
            LeaderElector b = candidate(client, "b");
            a.start();
            try {
                await().atMost(Duration.ofSeconds(20)).until(a::isLeader);
                assertThat(a.standbyReason()).isEmpty();
                b.start();
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> b.standbyReason().equals("lease standby-test/reason is held by a"));
                assertThat(b.isLeader()).isFalse();
            } finally {
                a.stop();
                b.stop();
            }
        }
    }

    @Test
    void saysTheApiServerCannotBeReached() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        LeaderElector c = candidate(KubeClient.forServer("http://127.0.0.1:" + closedPort), "c");
        assertThat(c.standbyReason()).isEqualTo("not campaigned yet");
        assertThat(c.tryAcquireOrRenew()).isFalse();
        assertThat(c.standbyReason())
                .startsWith("cannot read lease standby-test/reason: ")
                .contains(Integer.toString(closedPort));
    }
}
