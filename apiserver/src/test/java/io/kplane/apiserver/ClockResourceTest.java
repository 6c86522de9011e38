package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The cluster Clock kind: served with discovery, validated, its status computed, its changes followed. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClockResourceTest extends ApiServerHttpTest {
    private static final String CLOCK = "/apis/kplane.io/v1/clocks/cluster";
    private static final String MERGE = "application/merge-patch+json";

    @Test
    @Order(1)
    void theServerStartsWithARealClockListedInDiscovery() {
        JsonNode clock = http.get(CLOCK).json();
        assertThat(clock.at("/spec/mode").asText()).isEqualTo("Real");
        assertThat(clock.at("/status/rate").asLong()).isEqualTo(1);
        JsonNode resources = http.get("/apis/kplane.io/v1").json();
        assertThat(resources.toString()).contains("\"name\":\"clocks\"").contains("\"kind\":\"Clock\"");
        assertThat(http.get("/apis").body()).contains("kplane.io");
    }

    @Test
    @Order(2)
    void badSpecsAre422WithACausePerField() {
        Http.Response rate = http.patch(CLOCK, "{\"spec\":{\"mode\":\"Rate\",\"rate\":0}}", MERGE);
        assertThat(rate.code()).isEqualTo(422);
        assertThat(rate.json().at("/details/causes/0/field").asText()).isEqualTo("spec.rate");
        Http.Response mode = http.patch(CLOCK, "{\"spec\":{\"mode\":\"Sideways\"}}", MERGE);
        assertThat(mode.code()).isEqualTo(422);
        assertThat(mode.json().at("/details/causes/0/field").asText()).isEqualTo("spec.mode");
        Http.Response time = http.patch(CLOCK, "{\"spec\":{\"mode\":\"Frozen\",\"time\":\"tomorrow\"}}", MERGE);
        assertThat(time.code()).isEqualTo(422);
        assertThat(time.json().at("/details/causes/0/field").asText()).isEqualTo("spec.time");
        Http.Response offset = http.patch(CLOCK, "{\"spec\":{\"mode\":\"Frozen\",\"offset\":\"1h\"}}", MERGE);
        assertThat(offset.code()).isEqualTo(422);
        Http.Response other = http.post(
                "/apis/kplane.io/v1/clocks", "{\"metadata\":{\"name\":\"second\"},\"spec\":{\"mode\":\"Real\"}}");
        assertThat(other.code()).isEqualTo(422);
        assertThat(http.get(CLOCK).json().at("/spec/mode").asText()).isEqualTo("Real");
    }

    @Test
    @Order(3)
    void aFrozenClockStampsNewObjectsAndEveryChangeIsAnEvent() {
        Http.Response frozen =
                http.patch(CLOCK, "{\"spec\":{\"mode\":\"Frozen\",\"time\":\"2026-12-01T00:00:00Z\"}}", MERGE);
        assertThat(frozen.code()).as(frozen.body()).isEqualTo(200);
        assertThat(frozen.json().at("/status/clusterAnchor").asText()).isEqualTo("2026-12-01T00:00:00.000000Z");
        assertThat(frozen.json().at("/status/rate").asLong()).isZero();
        // the server follows its own clock through a watch: the next object is stamped in cluster time
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String name = "c" + System.nanoTime();
            JsonNode cm = http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + name + "\"}}")
                    .json();
            assertThat(cm.at("/metadata/creationTimestamp").asText()).isEqualTo("2026-12-01T00:00:00Z");
        });
        Http.Response rate = http.patch(CLOCK, "{\"spec\":{\"mode\":\"Rate\",\"rate\":60,\"time\":null}}", MERGE);
        Instant anchor = Instant.parse(rate.json().at("/status/clusterAnchor").asText());
        assertThat(anchor).as("a new rate continues from the frozen instant").isEqualTo("2026-12-01T00:00:00Z");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                        http.get("/api/v1/namespaces/default/events").body())
                .contains("ClockChanged")
                .contains("Clock set to Frozen at 2026-12-01T00:00:00Z (was Real)")
                .contains("Clock set to Rate x60"));
        assertThat(http.patch(CLOCK, "{\"spec\":{\"mode\":\"Real\",\"rate\":null}}", MERGE)
                        .code())
                .isEqualTo(200);
    }
}
