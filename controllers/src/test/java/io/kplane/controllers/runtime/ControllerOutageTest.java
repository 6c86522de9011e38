package io.kplane.controllers.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.controllers.testing.ControllerJvm;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API server goes away under a running controller process for longer than its renew deadline:
 * the process stops its workers (it may no longer lead), stays up, and leads and runs its workers
 * again once the API server is back, without a restart.
 */
class ControllerOutageTest {
    private static TestApiServer api;

    @BeforeAll
    static void start() {
        api = TestApiServer.start();
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    private static long count(ControllerJvm replica, String text) {
        return replica.lines().stream().filter(l -> l.contains(text)).count();
    }

    @Test
    void aControllerWaitsForTheApiServerAndLeadsAgainWhenItReturns() throws Exception {
        // lease 3 s, renew deadline 2 s, retry 300 ms
        try (ControllerJvm replica = ControllerShutdownTest.replica(api.url(), "3s", "2s")) {
            await().atMost(Duration.ofSeconds(60)).until(() -> replica.printed("WORKERS-START"));

            api.stop();
            await().atMost(Duration.ofSeconds(30)).until(() -> replica.printed("WORKERS-STOP"));
            assertThat(replica.process().isAlive())
                    .as("the process waits for the API server; output: %s", replica.lines())
                    .isTrue();

            api.restart();
            await().atMost(Duration.ofSeconds(60)).until(() -> count(replica, "WORKERS-START") == 2);
            assertThat(replica.process().isAlive()).isTrue();
            assertThat(count(replica, "WORKERS-STOP")).isEqualTo(1);

            replica.terminate();
            assertThat(replica.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS))
                    .isTrue();
            assertThat(replica.process().exitValue()).isZero();
        }
    }
}
