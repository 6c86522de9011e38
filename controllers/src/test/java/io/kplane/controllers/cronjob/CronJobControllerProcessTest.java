package io.kplane.controllers.cronjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.controllers.testing.ControllerJvm;
import io.kplane.controllers.testing.TestObjects;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cronjob-controller as a separate JVM, killed with SIGKILL and restarted: every minute gets
 * exactly one Job. The cluster Clock is set ahead (Offset mode) so that schedule times come within
 * seconds instead of minutes: the first process lives just before a minute boundary, the restarted one
 * a minute later (the clock is moved a minute on, as if the controller had been down for that minute).
 */
class CronJobControllerProcessTest {
    private static final String NS = "default";
    private TestApiServer api;
    private KubeClient client;
    private final List<ControllerJvm> processes = new ArrayList<>();

    @TempDir
    Path logs;

    @BeforeEach
    void startApiServer() {
        api = TestApiServer.start();
        client = KubeClient.forServer(api.url());
    }

    @AfterEach
    void stopAll() throws Exception {
        for (ControllerJvm p : processes) {
            p.kill();
        }
        api.close();
    }

    /** Sets the cluster clock to wall time + {@code offsetSeconds}, as {@code kubectl patch clock cluster} would. */
    private void setOffset(long offsetSeconds) {
        client.resource(io.kplane.api.ResourceTypes.CLOCKS, io.kplane.api.clock.Clock.class)
                .patch(
                        "cluster",
                        io.kplane.api.patch.PatchType.MERGE,
                        "{\"spec\":{\"mode\":\"Offset\",\"offset\":\"" + offsetSeconds + "s\"}}");
    }

    private ControllerJvm startController(long offsetSeconds, String logName) throws IOException {
        setOffset(offsetSeconds);
        ControllerJvm process = ControllerJvm.startLoggingTo(
                logs.resolve(logName),
                List.of(),
                CronJobControllerMain.class,
                "--server",
                api.url(),
                "--leader-elect=false",
                "--health-port",
                "0");
        processes.add(process);
        return process;
    }

    private List<String> jobNames(String cronJob) {
        return client.jobs().inNamespace(NS).list().stream()
                .filter(j -> JobsFromCronJob.isControlledByName(j, cronJob))
                .map(Job::name)
                .sorted()
                .toList();
    }

    @Test
    void killNineAndRestartNeverDuplicatesOrSkipsAMinute() throws Exception {
        String name = "every-minute-process";
        CronJob cj = client.cronJobs().inNamespace(NS).create(TestObjects.cronJob(NS, name, s -> s));
        Instant now = Instant.now();
        // The first minute boundary after the CronJob was created; the first process starts 4 s before it.
        Instant boundary = now.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
        long offset =
                Math.max(0, Duration.between(now, boundary.minusSeconds(4)).toSeconds());
        long minute = boundary.getEpochSecond() / 60;
        assertThat(boundary).isAfter(cj.metadata().creationTimestamp());

        ControllerJvm first = startController(offset, "first.log");
        await().atMost(Duration.ofSeconds(40)).until(() -> jobNames(name).contains(name + "-" + minute));
        first.kill(); // SIGKILL right after the run was created, maybe before its status write

        startController(offset + 60, "second.log"); // one minute later: the next run is due at once
        await().atMost(Duration.ofSeconds(40)).until(() -> jobNames(name).contains(name + "-" + (minute + 1)));
        assertThat(jobNames(name)).containsExactly(name + "-" + minute, name + "-" + (minute + 1));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            CronJob status = client.cronJobs().inNamespace(NS).get(name);
            assertThat(status.status().lastScheduleTime()).isEqualTo(boundary.plusSeconds(60));
            assertThat(status.status().activeOrEmpty())
                    .extracting(r -> r.name())
                    .contains(name + "-" + (minute + 1));
        });
        processes.get(1).kill();

        // A second crash-restart at the same time: the run it would retry already exists, nothing is added.
        startController(offset + 60, "third.log");
        await().during(Duration.ofSeconds(4))
                .atMost(Duration.ofSeconds(10))
                .until(() -> jobNames(name).size() == 2);
    }
}
