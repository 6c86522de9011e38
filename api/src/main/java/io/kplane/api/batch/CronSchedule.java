package io.kplane.api.batch;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A CronJob schedule: the standard 5-field cron syntax (minute hour day-of-month month day-of-week,
 * with names, ranges, steps and lists), the macros {@code @yearly @annually @monthly @weekly @daily
 * @midnight @hourly} and {@code @every <duration>}, evaluated in a time zone (UTC unless the CronJob
 * names one). Parsing follows what Kubernetes accepts ({@code cron.ParseStandard}); admission
 * validates with it and the CronJob controller schedules with it, so both agree on what a schedule means.
 *
 * <p>Like robfig/cron, a schedule matches local wall-clock times, so across a DST change
 * <ul>
 *   <li>wall times that do not exist (spring forward gap) are skipped, never shifted;</li>
 *   <li>wall times that occur twice (fall back overlap) fire twice, once per offset.</li>
 * </ul>
 * cron-utils parses the expression and steps through wall-clock times (computed in UTC, which has
 * no DST); {@link #nextAfter} maps each wall time to the instants it denotes in the zone.
 */
public final class CronSchedule {
    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

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
    private final ExecutionTime executionTime;
    private final Duration every;

    private CronSchedule(String expression, ZoneId zone, ExecutionTime executionTime, Duration every) {
        this.expression = expression;
        this.zone = zone;
        this.executionTime = executionTime;
        this.every = every;
    }

    /**
     * Parses {@code schedule} for evaluation in {@code timeZone} (an IANA name; {@code null} means UTC).
     *
     * @throws IllegalArgumentException with a message fit for the user when either is invalid
     */
    public static CronSchedule parse(String schedule, String timeZone) {
        // Schedules are parsed on every CronJob sync and admission; cron-utils parsing is costly and
        // the result immutable, so parsed schedules are memoised (valid ones only: errors re-parse).
        String cacheKey = timeZone + '\u0000' + schedule;
        CronSchedule cached = PARSED.get(cacheKey);
        if (cached != null) {
            return cached;
        }
        CronSchedule parsed = parseUncached(schedule, timeZone);
        if (PARSED.size() >= PARSED_CAPACITY) {
            PARSED.clear(); // crude bound: far more distinct schedules than any cluster has
        }
        PARSED.put(cacheKey, parsed);
        return parsed;
    }

    private static final int PARSED_CAPACITY = 4096;
    private static final java.util.concurrent.ConcurrentMap<String, CronSchedule> PARSED =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static CronSchedule parseUncached(String schedule, String timeZone) {
        ZoneId zone = zone(timeZone);
        String spec = schedule == null ? "" : schedule.trim();
        if (spec.isEmpty()) {
            throw new IllegalArgumentException("empty spec string");
        }
        if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
            throw new IllegalArgumentException("cannot use TZ or CRON_TZ in schedule, use timeZone field instead");
        }
        if (spec.startsWith("@")) {
            String lower = spec.toLowerCase(Locale.ROOT);
            if (lower.startsWith("@every ")) {
                return new CronSchedule(
                        spec, zone, null, every(spec.substring(7).trim()));
            }
            String expanded = MACROS.get(lower);
            if (expanded == null) {
                throw new IllegalArgumentException("unrecognized descriptor: " + spec);
            }
            return new CronSchedule(spec, zone, ExecutionTime.forCron(PARSER.parse(expanded)), null);
        }
        String[] fields = spec.split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException(
                    "expected exactly 5 fields, found " + fields.length + ": [" + String.join(" ", fields) + "]");
        }
        try {
            Cron cron = PARSER.parse(String.join(" ", fields).replace('?', '*'));
            cron.validate();
            return new CronSchedule(spec, zone, ExecutionTime.forCron(cron), null);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    e.getMessage() == null
                            ? "invalid schedule: " + spec
                            : e.getMessage().replace("\n", " "),
                    e);
        }
    }

    /** Whether {@code timeZone} names a zone Kubernetes accepts: {@code null} or an IANA name (not "Local"). */
    public static ZoneId zone(String timeZone) {
        if (timeZone == null) {
            return ZoneOffset.UTC;
        }
        if (timeZone.isEmpty() || timeZone.equalsIgnoreCase("Local")) {
            throw new IllegalArgumentException("unknown time zone " + timeZone);
        }
        try {
            return ZoneId.of(timeZone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone " + timeZone);
        }
    }

    /**
     * The first scheduled time strictly after {@code after}, or empty if the schedule never fires
     * again (e.g. February 30th).
     */
    public Optional<Instant> nextAfter(Instant after) {
        if (every != null) {
            // Like robfig/cron's ConstantDelaySchedule: whole seconds after the reference time.
            return Optional.of(after.truncatedTo(ChronoUnit.SECONDS).plus(every));
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

    /** The interval of an {@code @every} schedule, whose times are a fixed step apart; empty for cron schedules. */
    public Optional<Duration> constantInterval() {
        return Optional.ofNullable(every);
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
        // cron-utils' nextExecution is costly and the CronJob controller asks the same questions for
        // every CronJob sharing this (memoised) schedule, e.g. "next after the last minute boundary"
        synchronized (nextWallTimes) {
            Optional<LocalDateTime> known = nextWallTimes.get(wall);
            if (known != null) {
                return known;
            }
        }
        Optional<LocalDateTime> next = executionTime
                .nextExecution(ZonedDateTime.of(wall, ZoneOffset.UTC))
                .map(ZonedDateTime::toLocalDateTime);
        synchronized (nextWallTimes) {
            nextWallTimes.put(wall, next);
        }
        return next;
    }

    private static final int NEXT_WALL_TIMES_KEPT = 256;
    private final Map<LocalDateTime, Optional<LocalDateTime>> nextWallTimes =
            new java.util.LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<LocalDateTime, Optional<LocalDateTime>> eldest) {
                    return size() > NEXT_WALL_TIMES_KEPT;
                }
            };

    /**
     * The most recent scheduled time at or before {@code atOrBefore}, if any. Evaluated by cron-utils
     * in the zone, without the wall-clock DST rules of {@link #nextAfter}, which is what the CronJob
     * controller schedules by.
     */
    public Optional<Instant> lastAtOrBefore(Instant atOrBefore) {
        if (every != null) {
            return Optional.empty();
        }
        ZonedDateTime at = atOrBefore.atZone(zone);
        if (executionTime.isMatch(at.truncatedTo(ChronoUnit.MINUTES))
                && !at.truncatedTo(ChronoUnit.MINUTES).isAfter(at)) {
            return Optional.of(at.truncatedTo(ChronoUnit.MINUTES).toInstant());
        }
        return executionTime.lastExecution(at).map(ZonedDateTime::toInstant);
    }

    public String expression() {
        return expression;
    }

    public ZoneId zone() {
        return zone;
    }

    private static Duration every(String text) {
        try {
            Duration d = Duration.parse("PT" + text.toUpperCase(Locale.ROOT).replace(" ", ""));
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("failed to parse duration " + text);
            }
            // robfig/cron rounds @every below one second up to one second.
            return d.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : d.truncatedTo(ChronoUnit.SECONDS);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "failed to parse duration @every " + text + ": time: invalid duration \"" + text + "\"");
        }
    }

    @Override
    public String toString() {
        return expression + (zone.equals(ZoneOffset.UTC) ? "" : " (" + zone + ")");
    }
}
