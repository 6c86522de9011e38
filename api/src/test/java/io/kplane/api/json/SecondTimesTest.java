package io.kplane.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class SecondTimesTest {
    @Test
    void wholeSecondsAreFormattedExactlyAsIsoInstantRepeatedOrNot() {
        SplittableRandom random = new SplittableRandom(9);
        for (int i = 0; i < 5_000; i++) {
            // years 0001..9999 and beyond, the epoch and before it; each second asked for twice in a row
            // (the remembered text) and then once more after another second (formatted again)
            Instant t = Instant.ofEpochSecond(random.nextLong(-62_135_596_800L, 400_000_000_000L));
            Instant other = t.plusSeconds(1 + random.nextInt(100_000));
            String expected = DateTimeFormatter.ISO_INSTANT.format(t);
            assertThat(Json.formatTime(t)).isEqualTo(expected);
            assertThat(Json.formatTime(t)).isEqualTo(expected);
            assertThat(Json.formatTime(other)).isEqualTo(DateTimeFormatter.ISO_INSTANT.format(other));
            assertThat(Json.formatTime(t)).isEqualTo(expected);
        }
        assertThat(Json.formatTime(Instant.EPOCH)).isEqualTo("1970-01-01T00:00:00Z");
        assertThat(Json.formatTime(Instant.parse("2026-11-24T16:20:05Z"))).isEqualTo("2026-11-24T16:20:05Z");
    }

    @Test
    void threadsFormattingDifferentSecondsNeverGetEachOthersText() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long base = 1_790_000_000L + t * 7L;
                results.add(threads.submit(() -> {
                    int checked = 0;
                    for (int i = 0; i < 20_000; i++) {
                        Instant second = Instant.ofEpochSecond(base + i % 3);
                        assertThat(Json.formatTime(second)).isEqualTo(DateTimeFormatter.ISO_INSTANT.format(second));
                        checked++;
                    }
                    return checked;
                }));
            }
            for (Future<Integer> result : results) {
                assertThat(result.get()).isEqualTo(20_000);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
