package io.kplane.kubelet.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.client.time.FakeClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@link DockerTerminalResizer}'s order and repeats, on a fake clock (the engine is a list of calls):
 * every size passed on at once and in order, the last one repeated after each quiet period, a newer size
 * restarting the repeats, none after close. DockerTerminalResizeTest shows on the real engine why.
 */
class DockerTerminalResizerTest {
    private final FakeClock clock = new FakeClock();
    private final List<String> engine = new CopyOnWriteArrayList<>();
    private final DockerTerminalResizer resizer =
            new DockerTerminalResizer((w, h) -> engine.add(w + "x" + h), clock, Runnable::run);

    @Test
    void kubectlsPairIsPassedOnInOrderAndTheLastSizeRepeatedAfterEachQuietPeriod() {
        resizer.resize(124, 46);
        resizer.resize(123, 45);
        assertThat(engine).containsExactly("124x46", "123x45");

        clock.advance(Duration.ofMillis(99));
        assertThat(engine).hasSize(2);
        clock.advance(Duration.ofMillis(1));
        assertThat(engine).containsExactly("124x46", "123x45", "123x45");
        clock.advance(Duration.ofMillis(900));
        assertThat(engine).containsExactly("124x46", "123x45", "123x45", "123x45");
        clock.advance(Duration.ofSeconds(2));
        assertThat(engine).containsExactly("124x46", "123x45", "123x45", "123x45", "123x45");
        assertThat(DockerTerminalResizer.RESEND_AFTER).last().isEqualTo(Duration.ofSeconds(3));

        clock.advance(Duration.ofHours(1));
        assertThat(engine).as("three repeats, then nothing").hasSize(5);
        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    void aNewSizeStartsTheRepeatsOverAndTheOldSizeIsNeverSentAgain() {
        resizer.resize(80, 24);
        clock.advance(Duration.ofMillis(100));
        assertThat(engine).containsExactly("80x24", "80x24");

        clock.advance(Duration.ofMillis(500));
        resizer.resize(100, 30); // the first size's 1 s repeat would come 400 ms from now
        clock.advance(Duration.ofMillis(400));
        assertThat(engine)
                .as("the new size's 100 ms repeat, not the old size's 1 s one")
                .containsExactly("80x24", "80x24", "100x30", "100x30");
        clock.advance(Duration.ofHours(1));
        assertThat(engine).containsExactly("80x24", "80x24", "100x30", "100x30", "100x30", "100x30");
    }

    @Test
    void nothingIsSentAfterClose() {
        resizer.resize(80, 24);
        resizer.close();
        clock.advance(Duration.ofHours(1));
        resizer.resize(100, 30);
        assertThat(engine).containsExactly("80x24");
        assertThat(clock.pendingTimers()).isZero();
    }
}
