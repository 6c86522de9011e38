package io.kplane.kubectl.clock;

import io.kplane.api.batch.CronSchedule;
import io.kplane.api.clock.Clock;
import io.kplane.api.clock.ClockSpec;
import io.kplane.api.clock.ClusterTime;
import io.kplane.api.clock.GoDuration;
import io.kplane.api.json.Json;
import io.kplane.kubectl.CliException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kubectl-lite clock}: shows and steers the cluster clock (docs/clock.md). Each subcommand is a
 * merge patch of {@code clocks.kplane.io/cluster}; the real kubectl does the same with
 * {@code kubectl patch clock cluster --type merge -p '{"spec":{...}}'}.
 */
@Command(
        name = "clock",
        description = "Show or steer the cluster clock (set, advance, rate, freeze, real).",
        subcommands = {
            ClockCommand.Set.class,
            ClockCommand.Advance.class,
            ClockCommand.Rate.class,
            ClockCommand.Freeze.class,
            ClockCommand.Real.class
        })
public final class ClockCommand extends ClockBase {
    private static final DateTimeFormatter ZONED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss zzz (xxx)");

    @Option(names = "--zone", description = "also show the cluster time in this IANA time zone")
    String zone;

    @Override
    public Integer call() {
        Clock clock = new ClockApi(api()).get();
        show(clock, zone);
        return 0;
    }

    void show(Clock clock, String zoneName) {
        ClusterTime t = clock.clusterTime();
        Instant wall = Instant.now();
        Instant now = t.at(wall);
        out().printf("Mode:          %s%n", ClockStepper.mode(clock));
        out().printf("Cluster time:  %s%n", Json.formatTime(now));
        if (zoneName != null) {
            out().printf("               %s%n", ZONED.format(now.atZone(zone(zoneName))));
        }
        out().printf("Wall time:     %s%n", Json.formatTime(wall));
        if (!t.isFrozen()) {
            out().printf(
                            "Offset:        %s%n",
                            GoDuration.format(Duration.between(wall, now).withNanos(0)));
        }
        out().printf("Rate:          %d%n", t.rate());
        out().printf("Generation:    %d%n", clock.metadata().generation());
        out().flush();
    }

    static ZoneId zone(String name) {
        try {
            return CronSchedule.zone(name);
        } catch (RuntimeException e) {
            throw new CliException("error: unknown time zone \"" + name + "\"");
        }
    }

    /** {@code clock set TIME [--zone Z]}: jumps to TIME, keeping the mode (real time becomes Offset). */
    @Command(name = "set", description = "Set the cluster time (keeps Frozen/Rate; Real becomes Offset).")
    public static final class Set extends ClockBase {
        @Option(names = "--zone", description = "time zone of a local TIME (default UTC)")
        String zone;

        @Parameters(
                index = "0",
                paramLabel = "TIME",
                description = "RFC 3339 (2026-10-25T00:30:00Z), or a local time 2026-10-25T02:30[:00] read in --zone")
        String time;

        @Override
        public Integer call() {
            Instant at = parseTime(time, zone);
            ClockApi clocks = new ClockApi(api());
            Clock clock = clocks.get();
            var patch = ClockStepper.stepPatch(clock, at, null);
            patch.remove("metadata");
            done(clocks.patch(patch));
            return 0;
        }

        static Instant parseTime(String text, String zoneName) {
            try {
                return OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException e) {
                try {
                    return LocalDateTime.parse(text.replace(' ', 'T'))
                            .atZone(zoneName == null ? java.time.ZoneOffset.UTC : zone(zoneName))
                            .toInstant();
                } catch (DateTimeParseException again) {
                    throw new CliException("error: invalid time \"" + text
                            + "\": use RFC 3339 (2026-10-25T00:30:00Z) or a local time with --zone");
                }
            }
        }
    }

    /** {@code clock advance DURATION [--step D]}. */
    @Command(
            name = "advance",
            description = "Move the cluster time forward, one --step at a time, waiting for the "
                    + "cluster to settle after each step.")
    public static final class Advance extends ClockBase {
        @Parameters(index = "0", paramLabel = "DURATION", description = "e.g. 3h, 90m, 1h30m")
        String duration;

        @Option(names = "--step", paramLabel = "D", description = "step size (default: the whole duration at once)")
        String step;

        @Option(
                names = "--ack-timeout",
                defaultValue = "10s",
                description = "how long to wait for a process to finish a step before going on without it")
        String ackTimeout;

        @Override
        public Integer call() throws Exception {
            Duration total = parse(duration);
            Duration stepSize = step == null ? null : parse(step);
            new ClockStepper(new ClockApi(api()), out(), parse(ackTimeout)).advance(total, stepSize);
            done(new ClockApi(api()).get());
            return 0;
        }

        private static Duration parse(String text) {
            try {
                return GoDuration.parse(text);
            } catch (IllegalArgumentException e) {
                throw new CliException("error: invalid duration \"" + text + "\" (use e.g. 90s, 5m, 1h30m)");
            }
        }
    }

    /** {@code clock rate N}. */
    @Command(name = "rate", description = "Run the cluster clock N times faster than the wall clock (N >= 1).")
    public static final class Rate extends ClockBase {
        @Parameters(index = "0", paramLabel = "N")
        long rate;

        @Override
        public Integer call() {
            done(new ClockApi(api()).patch(ClockApi.spec(ClockSpec.RATE, null, null, rate)));
            return 0;
        }
    }

    /** {@code clock freeze}. */
    @Command(name = "freeze", description = "Stop the cluster clock at the current cluster time.")
    public static final class Freeze extends ClockBase {
        @Override
        public Integer call() {
            done(new ClockApi(api()).patch(ClockApi.spec(ClockSpec.FROZEN, null, null, null)));
            return 0;
        }
    }

    /** {@code clock real}. */
    @Command(name = "real", description = "Back to wall-clock time.")
    public static final class Real extends ClockBase {
        @Override
        public Integer call() {
            done(new ClockApi(api()).patch(ClockApi.spec(ClockSpec.REAL, null, null, null)));
            return 0;
        }
    }
}
