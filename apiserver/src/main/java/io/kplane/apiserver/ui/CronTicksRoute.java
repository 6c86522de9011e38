package io.kplane.apiserver.ui;

import io.kplane.api.batch.CronSchedule;
import io.kplane.api.batch.CronScheduleTicks;
import io.kplane.api.json.Json;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.http.Responses;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /ui/api/cronjob-ticks?schedule=S[&timeZone=Z]&name=N&now=T[&from=T0][&past=P][&next=K]}:
 * a CronJob's schedule times for the {@code /ui} timeline, computed by {@link CronScheduleTicks}, the
 * code {@code kubectl-lite cronjob next} prints, so the page never re-implements cron in JavaScript
 * (time zones, daylight-saving gaps and overlaps, {@code @every}). Pure computation on what the page
 * sends (it already read the CronJob and the cluster clock through the API): no cluster data is read
 * here. {@code past}: the last P times in (from, now] (default 12, at most 200); {@code next}: the next K
 * after now (default 5, at most 50). Bad input → 400 {@code Status}.
 */
final class CronTicksRoute {
    static final String PATH = "/ui/api/cronjob-ticks";
    private static final int MAX_PAST = 200;
    private static final int MAX_NEXT = 50;

    void handle(RoutingContext ctx) {
        try {
            String scheduleText = required(ctx, "schedule");
            String name = required(ctx, "name");
            String zone = ctx.request().getParam("timeZone");
            Instant now = instant(ctx, "now", null);
            Instant from = instant(ctx, "from", now.minusSeconds(24 * 3600));
            int past = count(ctx, "past", 12, MAX_PAST);
            int next = count(ctx, "next", 5, MAX_NEXT);
            CronSchedule schedule;
            try {
                schedule = CronSchedule.parse(scheduleText, zone == null || zone.isEmpty() ? null : zone);
            } catch (RuntimeException e) {
                throw ApiError.badRequest("cannot parse schedule \"" + scheduleText + "\": " + e.getMessage());
            }
            Map<String, Object> body = new LinkedHashMap<>();
            // ZoneOffset.UTC's id is "Z": say "UTC", as kubectl-lite cronjob next does for an unset timeZone
            body.put(
                    "zone",
                    schedule.zone().equals(java.time.ZoneOffset.UTC)
                            ? "UTC"
                            : schedule.zone().getId());
            body.put("now", Json.formatTime(now));
            body.put("past", json(CronScheduleTicks.between(schedule, name, from, now, past)));
            body.put("next", json(CronScheduleTicks.next(schedule, name, now, next)));
            Responses.json(ctx, 200, body);
        } catch (ApiError e) {
            Responses.error(ctx, e);
        }
    }

    private static List<Map<String, Object>> json(List<CronScheduleTicks.Tick> ticks) {
        return ticks.stream()
                .map(t -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("time", Json.formatTime(t.time()));
                    m.put("local", t.local());
                    m.put("job", t.jobName());
                    return m;
                })
                .toList();
    }

    private static String required(RoutingContext ctx, String name) {
        String v = ctx.request().getParam(name);
        if (v == null || v.isBlank()) {
            throw ApiError.badRequest("query parameter \"" + name + "\" is required");
        }
        return v;
    }

    private static Instant instant(RoutingContext ctx, String name, Instant fallback) {
        String v = ctx.request().getParam(name);
        if (v == null || v.isBlank()) {
            if (fallback == null) {
                throw ApiError.badRequest("query parameter \"" + name + "\" is required (RFC 3339 time)");
            }
            return fallback;
        }
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException e) {
            throw ApiError.badRequest("query parameter \"" + name + "\" must be an RFC 3339 time, got \"" + v + "\"");
        }
    }

    private static int count(RoutingContext ctx, String name, int fallback, int max) {
        String v = ctx.request().getParam(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < 0 || n > max) {
                throw ApiError.badRequest(
                        "query parameter \"" + name + "\" must be between 0 and " + max + ", got " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("query parameter \"" + name + "\" must be a number, got \"" + v + "\"");
        }
    }
}
