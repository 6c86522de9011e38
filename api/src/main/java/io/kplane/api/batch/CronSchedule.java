package io.kplane.api.batch;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A CronJob schedule: the standard 5-field cron syntax (minute hour day-of-month month day-of-week,
 * with names, ranges, steps and lists), the macros {@code @yearly @annually @monthly @weekly @daily
 * @midnight @hourly} and {@code @every <duration>}, evaluated in a time zone (UTC unless the CronJob
 * names one). Parsing follows what Kubernetes accepts ({@code cron.ParseStandard}).
 */
public final class CronSchedule {
    private static final CronParser PARSER =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 1 1 *",
            "@annually", "0 0 1 1 *",
            "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *",
            "@midnight", "0 0 * * *",
            "@hourly", "0 * * * *");

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
                return new CronSchedule(spec, zone, null, every(spec.substring(7).trim()));
            }
            String expanded = MACROS.get(lower);
            if (expanded == null) {
                throw new IllegalArgumentException("unrecognized descriptor: " + spec);
            }
            return new CronSchedule(spec, zone, ExecutionTime.forCron(PARSER.parse(expanded)), null);
        }
        String[] fields = spec.split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException("expected exactly 5 fields, found " + fields.length + ": ["
                    + String.join(" ", fields) + "]");
        }
        try {
            Cron cron = PARSER.parse(String.join(" ", fields).replace('?', '*'));
            cron.validate();
            return new CronSchedule(spec, zone, ExecutionTime.forCron(cron), null);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() == null ? "invalid schedule: " + spec
                    : e.getMessage().replace("\n", " "), e);
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
        ZonedDateTime from = after.atZone(zone);
        return executionTime.nextExecution(from).map(ZonedDateTime::toInstant);
    }

    /** The most recent scheduled time at or before {@code atOrBefore}, if any. */
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
            throw new IllegalArgumentException("failed to parse duration @every " + text + ": time: invalid duration \""
                    + text + "\"");
        }
    }

    @Override
    public String toString() {
        return expression + (zone.equals(ZoneOffset.UTC) ? "" : " (" + zone + ")");
    }
}
