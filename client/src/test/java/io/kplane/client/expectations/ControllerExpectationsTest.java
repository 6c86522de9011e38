package io.kplane.client.expectations;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.client.time.FakeClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ControllerExpectationsTest {
    private final FakeClock clock = new FakeClock();
    private final ControllerExpectations expectations = new ControllerExpectations(clock);

    @Test
    void keyWithoutRecordIsSatisfied() {
        assertThat(expectations.satisfiedExpectations("ns/job")).isTrue();
    }

    @Test
    void creationsMustAllBeObserved() {
        expectations.expectCreations("ns/job", 2);
        assertThat(expectations.satisfiedExpectations("ns/job")).isFalse();
        expectations.creationObserved("ns/job");
        assertThat(expectations.satisfiedExpectations("ns/job")).isFalse();
        expectations.creationObserved("ns/job");
        assertThat(expectations.satisfiedExpectations("ns/job")).isTrue();
        expectations.creationObserved("ns/job");
        assertThat(expectations.getExpectations("ns/job")).get().satisfies(s -> assertThat(s.adds())
                .isEqualTo(-1));
        assertThat(expectations.satisfiedExpectations("ns/job"))
                .as("over-observed still satisfied")
                .isTrue();
    }

    @Test
    void deletionsAndLoweringForFailedCalls() {
        expectations.expectDeletions("k", 3);
        expectations.deletionObserved("k");
        assertThat(expectations.satisfiedExpectations("k")).isFalse();
        expectations.lowerExpectations("k", 0, 2);
        assertThat(expectations.satisfiedExpectations("k")).isTrue();
    }

    @Test
    void expectationsExpireAfterFiveMinutesOnTheClock() {
        expectations.expectCreations("k", 1);
        clock.advance(Duration.ofMinutes(5));
        assertThat(expectations.satisfiedExpectations("k"))
                .as("exactly 5 min is not yet expired")
                .isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(expectations.satisfiedExpectations("k")).isTrue();
    }

    @Test
    void setExpectationsResetsTheTimestampAndRaiseKeepsIt() {
        expectations.expectCreations("k", 1);
        clock.advance(Duration.ofMinutes(4));
        expectations.raiseExpectations("k", 1, 0);
        clock.advance(Duration.ofMinutes(2));
        assertThat(expectations.satisfiedExpectations("k"))
                .as("raise keeps the old timestamp")
                .isTrue();
        expectations.expectCreations("k", 1);
        clock.advance(Duration.ofMinutes(4));
        assertThat(expectations.satisfiedExpectations("k")).isFalse();
    }

    @Test
    void deleteExpectationsForgetsTheKey() {
        expectations.expectCreations("k", 5);
        expectations.deleteExpectations("k");
        assertThat(expectations.satisfiedExpectations("k")).isTrue();
        assertThat(expectations.getExpectations("k")).isEmpty();
    }

    @Test
    void lowerOrObserveWithoutRecordDoesNothing() {
        expectations.creationObserved("none");
        expectations.lowerExpectations("none", 1, 1);
        assertThat(expectations.getExpectations("none")).isEmpty();
    }

    @Test
    void uidTrackingExpectationsTrackFinalizerRemovals() {
        UIDTrackingExpectations uids = new UIDTrackingExpectations();
        uids.expectFinalizersRemoved("ns/job", List.of("u1", "u2"));
        uids.expectFinalizersRemoved("ns/job", List.of("u3"));
        assertThat(uids.expectedUids("ns/job")).containsExactlyInAnyOrder("u1", "u2", "u3");
        uids.finalizerRemovalObserved("ns/job", "u2");
        uids.finalizerRemovalObserved("ns/job", "unknown");
        assertThat(uids.expectedUids("ns/job")).containsExactlyInAnyOrder("u1", "u3");
        uids.deleteExpectations("ns/job");
        assertThat(uids.expectedUids("ns/job")).isEmpty();
    }
}
