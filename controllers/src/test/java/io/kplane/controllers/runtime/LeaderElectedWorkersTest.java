package io.kplane.controllers.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.controllers.testing.ControllerJvm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two replicas of a controller process with leader election, whose start (a slow cache sync) takes
 * longer than the lease: at no instant do both run workers.
 */
class LeaderElectedWorkersTest {
    static TestApiServer api;

    @BeforeAll
    static void start() {
        api = TestApiServer.start();
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    /** One replica and the WORKERS-START/STOP lines it printed, as epoch-millis intervals. */
    static final class Replica implements AutoCloseable {
        final ControllerJvm jvm;

        Replica(long startDelayMs) throws Exception {
            jvm = ControllerJvm.start(
                    List.of("-Xmx128m"),
                    SlowStartControllerMain.class,
                    api.url(),
                    Long.toString(startDelayMs),
                    "3s",
                    "2s",
                    "300ms");
        }

        boolean started() {
            return jvm.lines().stream().anyMatch(l -> l.startsWith("WORKERS-START"));
        }

        long time(String event) {
            return jvm.lines().stream()
                    .filter(l -> l.startsWith(event))
                    .mapToLong(l -> Long.parseLong(l.split(" ")[1]))
                    .findFirst()
                    .orElse(Long.MAX_VALUE);
        }

        @Override
        public void close() throws Exception {
            jvm.close();
        }
    }

    @Test
    void aLeaderWhoseStartOutlastsTheLeaseKeepsItAndNoTwoReplicasEverRunWorkers() throws Exception {
        KubeClient client = KubeClient.forServer(api.url());
        try (Replica a = new Replica(8_000)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> client.leases()
                    .inNamespace("default")
                    .find("slow-start")
                    .map(l -> l.spec().holderIdentity() != null)
                    .orElse(false));
            try (Replica b = new Replica(1_000)) {
                // a's start takes 8 s, far beyond the 3 s lease: it must keep renewing meanwhile
                await().atMost(Duration.ofSeconds(60)).until(a::started);
                await().during(Duration.ofSeconds(4))
                        .atMost(Duration.ofSeconds(10))
                        .until(() -> !b.started());
                a.close();
                // a stopped its workers on the way out (its output may still be in flight to our reader)
                await().atMost(Duration.ofSeconds(10)).until(() -> a.time("WORKERS-STOP") != Long.MAX_VALUE);
                await().atMost(Duration.ofSeconds(60)).until(b::started);
                assertThat(b.time("WORKERS-START"))
                        .as("b's workers start only after a's stopped")
                        .isGreaterThanOrEqualTo(a.time("WORKERS-STOP"));
                assertThat(a.time("WORKERS-START")).isLessThan(a.time("WORKERS-STOP"));
            }
        }
    }
}
