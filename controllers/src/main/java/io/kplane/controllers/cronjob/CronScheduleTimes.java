package io.kplane.controllers.cronjob;

import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.kplane.api.batch.CronSchedule;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static com.cronutils.model.CronType.UNIX;

/**
 * A 5-field cron schedule evaluated on the wall clock of a time zone, with the semantics Kubernetes
 * gets from robfig/cron: a schedule matches local wall-clock times, so across a DST change
 * <ul>
 *   <li>wall times that do not exist (spring forward gap) are skipped, never shifted;</li>
 *   <li>wall times that occur twice (fall back overlap) fire twice, once per offset.</li>
 * </ul>
 * cron-utils parses the expression and steps through wall-clock times (computed in UTC, which has
 * no DST); this class maps each wall time to the instants it denotes in the zone.
 */
public final class CronScheduleTimes {
    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(UNIX));

    /** The macros robfig/cron's ParseStandard accepts, as the 5-field expressions they stand for. */
    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 1 1 *",
            "@annually", "0 0 1 1 *",
            "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *",
            "@midnight", "0 0 * * *",
            "@hourly", "0 * * * *");

    /** Guards against schedules that match nothing for years (e.g. {@code 0 0 30 2 *}). */
    private static final int MAX_WALL_STEPS = 10_000;

    private final String expression;
    private final ZoneId zone;
    private final ExecutionTime wallClock;
    /** For {@code @every <duration>}, which is not wall-clock based: the api module's schedule. */
    private final CronSchedule constantDelay;

    private CronScheduleTimes(String expression, ZoneId zone, ExecutionTime wallClock, CronSchedule constantDelay) {
        this.expression = expression;
        this.zone = zone;
        this.wallClock = wallClock;
        this.constantDelay = constantDelay;
    }

    /**
     * Parses {@code schedule} for {@code timeZone} (an IANA name; {@code null} or empty means UTC,
     * the time zone of kplane's controllers).
     *
     * @throws IllegalArgumentException if the schedule or the time zone cannot be parsed
     */
    public static CronScheduleTimes parse(String schedule, String timeZone) {
        if (schedule == null || schedule.isBlank()) {
            throw new IllegalArgumentException("empty spec string");
        }
        ZoneId zone;
        try {
            zone = timeZone == null || timeZone.isEmpty() ? ZoneOffset.UTC : ZoneId.of(timeZone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone " + timeZone, e);
        }
        String trimmed = schedule.trim();
        if (trimmed.toLowerCase(Locale.ROOT).startsWith("@every ")) {
            return new CronScheduleTimes(trimmed, zone, null, CronSchedule.parse(trimmed, null));
        }
        String expression = trimmed.startsWith("@")
                ? MACROS.get(trimmed.toLowerCase(Locale.ROOT))
                : trimmed.replace('?', '*'); // robfig/cron reads '?' as '*'
        if (expression == null) {
            throw new IllegalArgumentException("unrecognized descriptor: " + trimmed);
        }
        int fields = expression.split("\\s+").length;
        if (fields != 5) {
            throw new IllegalArgumentException("expected exactly 5 fields, found " + fields + ": [" + expression + "]");
        }
        try {
            return new CronScheduleTimes(trimmed, zone, ExecutionTime.forCron(PARSER.parse(expression)), null);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The interval of an {@code @every} schedule, whose times are a fixed step apart; empty for cron schedules. */
    public Optional<java.time.Duration> constantInterval() {
        if (constantDelay == null) {
            return Optional.empty();
        }
        Instant t0 = Instant.EPOCH;
        return constantDelay.nextAfter(t0).map(t1 -> java.time.Duration.between(t0, t1));
    }

    public String expression() {
        return expression;
    }

    public ZoneId zone() {
        return zone;
    }

    /** The first schedule time strictly after {@code after}, or empty if the schedule never fires. */
    public Optional<Instant> next(Instant after) {
        if (constantDelay != null) {
            return constantDelay.nextAfter(after);
        }
        ZoneRules rules = zone.getRules();
        LocalDateTime wall = firstWallToConsider(after, rules);
        Instant best = null;
        for (int step = 0; step < MAX_WALL_STEPS; step++) {
            Optional<LocalDateTime> nextWall = nextWallTime(wall);
            if (nextWall.isEmpty()) {
                break;
            }
            wall = nextWall.get();
            List<ZoneOffset> offsets = rules.getValidOffsets(wall);
            if (offsets.isEmpty()) {
                continue; // in a spring-forward gap: this wall time never happens
            }
            Instant earliestForWall = null;
            for (ZoneOffset offset : offsets) {
                Instant candidate = wall.toInstant(offset);
                if (earliestForWall == null || candidate.isBefore(earliestForWall)) {
                    earliestForWall = candidate;
                }
                if (candidate.isAfter(after) && (best == null || candidate.isBefore(best))) {
                    best = candidate;
                }
            }
            // Wall times only move forward, so once a wall time's earliest instant is past the best
            // candidate, no later wall time can beat it.
            if (best != null && earliestForWall.isAfter(best)) {
                break;
            }
            if (best != null && offsets.size() == 1 && !inOverlapWindow(rules, best)) {
                break;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Where to start stepping wall times. Normally the wall time of {@code after}; but during the
     * first pass through a fall-back overlap, wall times earlier than now's recur after the
     * transition, so start at the beginning of the overlap.
     */
    private static LocalDateTime firstWallToConsider(Instant after, ZoneRules rules) {
        LocalDateTime wall = LocalDateTime.ofInstant(after, rules.getOffset(after));
        ZoneOffsetTransition upcoming = rules.nextTransition(after);
        if (upcoming != null && upcoming.isOverlap() && !wall.isBefore(upcoming.getDateTimeAfter())) {
            return upcoming.getDateTimeAfter().minusNanos(1);
        }
        return wall;
    }

    /** Whether {@code instant} lies within an hour-scale overlap, where later wall times may map earlier. */
    private static boolean inOverlapWindow(ZoneRules rules, Instant instant) {
        ZoneOffsetTransition upcoming = rules.nextTransition(instant);
        if (upcoming == null || !upcoming.isOverlap()) {
            return false;
        }
        LocalDateTime wall = LocalDateTime.ofInstant(instant, rules.getOffset(instant));
        return !wall.isBefore(upcoming.getDateTimeAfter());
    }

    private Optional<LocalDateTime> nextWallTime(LocalDateTime wall) {
        return wallClock.nextExecution(ZonedDateTime.of(wall, ZoneOffset.UTC)).map(ZonedDateTime::toLocalDateTime);
    }

    @Override
    public String toString() {
        return expression + " (" + zone + ")";
    }
}
