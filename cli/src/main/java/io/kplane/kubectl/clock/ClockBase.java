package io.kplane.kubectl.clock;

import io.kplane.api.clock.Clock;
import io.kplane.api.json.Json;
import io.kplane.kubectl.BaseCommand;
import java.time.Instant;

/** What the clock commands share. */
abstract class ClockBase extends BaseCommand {
    /** The line a change prints, like kubectl's {@code clock.kplane.io/cluster patched}. */
    void done(Clock clock) {
        out().printf(
                        "clock.kplane.io/cluster patched: %s, cluster time %s%n",
                        ClockStepper.mode(clock),
                        Json.formatTime(clock.clusterTime().at(Instant.now())));
        out().flush();
    }
}
