package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.util.HumanDuration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** How one persisted sync (a SyncRecord entry) reads on a terminal: triggers, saw, writes, events. */
final class SyncEntryFormat {
    private SyncEntryFormat() {}

    /**
     * The triggers coalesced into the sync: the first and, when there were more, the latest, then how
     * many others ({@code job default/pi ADDED rv 120, pod default/pi-x MODIFIED rv 130 (+3 more)}).
     */
    static String triggers(JsonNode entry) {
        List<JsonNode> all = new ArrayList<>();
        entry.path("triggers").forEach(all::add);
        if (all.isEmpty()) {
            return "<none>";
        }
        StringBuilder out = new StringBuilder(trigger(all.get(0)));
        if (all.size() > 1) {
            out.append(", ").append(trigger(all.get(all.size() - 1)));
        }
        int more = Math.max(0, all.size() - 2) + entry.path("triggersDropped").asInt(0);
        if (more > 0) {
            out.append(" (+").append(more).append(" more)");
        }
        return out.toString();
    }

    static String trigger(JsonNode t) {
        String type = t.path("type").asText();
        String resource = t.path("resource").asText("");
        String key = t.path("key").asText("");
        String rv = t.path("rv").asText("");
        String what = resource.isEmpty() ? "" : singular(resource) + " ";
        return switch (type) {
            case "REQUEUE" -> "requeued by its own sync";
            case "ADD_AFTER" -> "timer (add after a delay)";
            case "ADD" -> "added " + key;
            default -> (what + key + " " + type + (rv.isEmpty() ? "" : " rv " + rv)).strip();
        };
    }

    /** {@code active=0 succeeded=2 expectations=satisfied}, or {@code <none>}. */
    static String saw(JsonNode entry) {
        List<String> parts = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = entry.path("saw").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            parts.add(f.getKey() + "="
                    + (f.getValue().isValueNode()
                            ? f.getValue().asText()
                            : f.getValue().toString()));
        }
        return parts.isEmpty() ? "<none>" : String.join(" ", parts);
    }

    /** {@code pods_created} or {@code pods_created: reason}. */
    static String decision(JsonNode entry) {
        String decision = entry.path("decision").asText("");
        String reason = entry.path("reason").asText("");
        if (decision.isEmpty()) {
            decision = "<none>";
        }
        int repeated = entry.path("repeated").asInt(0);
        if (repeated > 0) {
            decision = decision + " (x" + (repeated + 1) + ")";
        }
        return reason.isEmpty() ? decision : decision + ": " + reason;
    }

    /** One line per write: {@code create pod default/pi-x -> rv 131} or {@code ... -> error: ...}. */
    static List<String> writes(JsonNode entry) {
        List<String> out = new ArrayList<>();
        for (JsonNode w : entry.path("writes")) {
            String target =
                    w.path("verb").asText() + " " + singular(w.path("resource").asText("")) + " "
                            + w.path("key").asText("");
            String error = w.path("error").asText("");
            String rv = w.path("rv").asText("");
            out.add(target + " -> " + (!error.isEmpty() ? "error: " + error : rv.isEmpty() ? "done" : "rv " + rv));
        }
        int dropped = entry.path("writesDropped").asInt(0);
        if (dropped > 0) {
            out.add("(+" + dropped + " more)");
        }
        return out;
    }

    static List<String> events(JsonNode entry) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : entry.path("events")) {
            out.add(e.path("type").asText() + "  " + e.path("reason").asText() + "  "
                    + e.path("message").asText());
        }
        int dropped = entry.path("eventsDropped").asInt(0);
        if (dropped > 0) {
            out.add("(+" + dropped + " more)");
        }
        return out;
    }

    static String duration(JsonNode entry) {
        if (!entry.hasNonNull("durationMs")) {
            return "";
        }
        double ms = entry.path("durationMs").asDouble();
        return ms < 10 ? String.format(java.util.Locale.ROOT, "%.1fms", ms) : Math.round(ms) + "ms";
    }

    static String requeue(JsonNode entry) {
        if (!entry.hasNonNull("requeueAfterMs")) {
            return "no";
        }
        return "after "
                + HumanDuration.format(
                        Duration.ofMillis(entry.path("requeueAfterMs").asLong()));
    }

    static String who(JsonNode entry) {
        return entry.path("component").asText() + "/" + entry.path("controller").asText();
    }

    static String age(JsonNode entry, Instant now) {
        return HumanDuration.since(SyncHistory.time(entry), now);
    }

    /** The describe line: {@code 12s  job-controller/job  pods_created: reason  (2 writes)}. */
    static String oneLine(JsonNode entry, Instant now) {
        List<String> writes = writes(entry);
        int errors = 0;
        for (JsonNode w : entry.path("writes")) {
            errors += w.path("error").asText("").isEmpty() ? 0 : 1;
        }
        String wrote = writes.isEmpty()
                ? "no writes"
                : entry.path("writes").size() + " write" + (entry.path("writes").size() == 1 ? "" : "s")
                        + (errors > 0 ? ", " + errors + " failed" : "");
        return age(entry, now) + "\t" + who(entry) + "\t" + decision(entry) + "\t" + wrote;
    }

    private static String singular(String resource) {
        return ResourceTypes.byResource(resource).map(t -> t.singular()).orElse(resource);
    }
}
