package io.kplane.client.lens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.coordination.Lease;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.client.time.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A component's lens Lease against a real API server: stamped and renewed on the wall clock. */
class LensAnnouncerTest {
    private static TestApiServer api;
    private static KubeClient client;

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start();
        client = KubeClient.forServer(api.url());
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    private static Optional<Lease> lease(String component) {
        return client.leases().inNamespace(LensAnnouncer.NAMESPACE).find(LensAnnouncer.leaseName(component));
    }

    @Test
    void announcesItsEndpointStampedWithWallTime() {
        Instant before = Instant.now();
        try (LensAnnouncer announcer =
                new LensAnnouncer(client, "wall-controller", "http://127.0.0.1:1234", "id-1").start()) {
            Lease lease = lease("wall-controller").orElseThrow();
            assertThat(lease.metadata().annotations())
                    .containsEntry(LensAnnouncer.ENDPOINT_ANNOTATION, "http://127.0.0.1:1234");
            assertThat(lease.metadata().labels()).containsEntry(LensAnnouncer.COMPONENT_LABEL, "wall-controller");
            assertThat(lease.spec().holderIdentity()).isEqualTo("id-1");
            assertThat(lease.spec().leaseDurationSeconds()).isEqualTo((int) LensAnnouncer.DURATION.toSeconds());
            // the apiserver judges staleness by its wall clock: a renewTime from a cluster clock set
            // back a day would make the lens UI drop a live component
            assertThat(lease.spec().renewTime())
                    .isBetween(before.minusSeconds(1), Instant.now().plusSeconds(1));
        }
    }

    @Test
    void renewsEveryRenewPeriodOfItsClockAndStopsWhenClosed() {
        FakeClock wall = new FakeClock(Instant.parse("2026-03-01T10:00:00Z"));
        LensAnnouncer announcer = new LensAnnouncer(client, wall, "renewing", "http://127.0.0.1:1", "id-2").start();
        Instant first = lease("renewing").orElseThrow().spec().renewTime();
        assertThat(first).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));

        wall.advance(LensAnnouncer.RENEW);
        await().atMost(Duration.ofSeconds(20))
                .until(
                        () -> lease("renewing").orElseThrow().spec().renewTime(),
                        t -> t.equals(first.plus(LensAnnouncer.RENEW)));
        assertThat(lease("renewing").orElseThrow().spec().acquireTime()).isEqualTo(first);

        announcer.close();
        wall.advance(LensAnnouncer.RENEW.multipliedBy(3));
        assertThat(lease("renewing").orElseThrow().spec().renewTime()).isEqualTo(first.plus(LensAnnouncer.RENEW));
    }
}
