package io.kplane.apiserver.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.apiserver.Http;
import io.kplane.apiserver.testing.TestApiServer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@code /ui/api/cronjob-ticks} on a real API server: the CronJob timeline's schedule times, computed
 * with {@code CronScheduleTicks} (as {@code kubectl-lite cronjob next}), DST-aware, bad input as 400 Status.
 */
class CronTicksRouteTest {
    private static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void pastAndNextTicksWithJobNamesAndTheAutumnOverlapTwice() throws Exception {
        try (TestApiServer api = TestApiServer.start()) {
            Http http = new Http(api.url());
            Http.Response r = http.get("/ui/api/cronjob-ticks?schedule=" + q("*/5 * * * *") + "&name=every5"
                    + "&from=2026-12-01T00:00:30Z&now=2026-12-01T00:15:30Z&next=2");
            assertThat(r.code()).as(r.body()).isEqualTo(200);
            JsonNode body = r.json();
            assertThat(body.path("zone").asText()).isEqualTo("UTC");
            assertThat(body.path("past").findValuesAsText("time"))
                    .containsExactly("2026-12-01T00:05:00Z", "2026-12-01T00:10:00Z", "2026-12-01T00:15:00Z");
            assertThat(body.path("past").get(0).path("job").asText())
                    .isEqualTo("every5-"
                            + java.time.Instant.parse("2026-12-01T00:05:00Z").getEpochSecond() / 60);
            assertThat(body.path("next").findValuesAsText("time"))
                    .containsExactly("2026-12-01T00:20:00Z", "2026-12-01T00:25:00Z");

            // 30 2 * * * in Berlin across the autumn 2026 change: 02:30 twice (CEST, then CET), as docs/clock.md
            Http.Response dst = http.get("/ui/api/cronjob-ticks?schedule=" + q("30 2 * * *") + "&timeZone=Europe/Berlin"
                    + "&name=nightly&now=2026-10-24T12:00:00Z&next=3&past=0");
            assertThat(dst.code()).as(dst.body()).isEqualTo(200);
            assertThat(dst.json().path("next").findValuesAsText("local"))
                    .containsExactly(
                            "2026-10-25 02:30:00 +02:00", "2026-10-25 02:30:00 +01:00", "2026-10-26 02:30:00 +01:00");
            assertThat(dst.json().path("next").findValuesAsText("job"))
                    .containsExactly("nightly-29881470", "nightly-29881530", "nightly-29882970");
        }
    }

    @Test
    void badInputIsABadRequestStatus() throws Exception {
        try (TestApiServer api = TestApiServer.start()) {
            Http http = new Http(api.url());
            Http.Response bad =
                    http.get("/ui/api/cronjob-ticks?schedule=" + q("61 * * * *") + "&name=x&now=2026-12-01T00:00:00Z");
            assertThat(bad.code()).isEqualTo(400);
            assertThat(bad.json().path("kind").asText()).isEqualTo("Status");
            assertThat(bad.json().path("message").asText()).contains("cannot parse schedule");
            assertThat(http.get("/ui/api/cronjob-ticks?schedule=" + q("* * * * *") + "&name=x")
                            .code())
                    .isEqualTo(400);
            assertThat(http.get("/ui/api/cronjob-ticks?schedule=" + q("* * * * *") + "&name=x&now=yesterday")
                            .json()
                            .path("message")
                            .asText())
                    .contains("RFC 3339");
            assertThat(http.get("/ui/api/cronjob-ticks?schedule=" + q("* * * * *")
                                    + "&name=x&now=2026-12-01T00:00:00Z&next=999")
                            .code())
                    .isEqualTo(400);
        }
    }
}
