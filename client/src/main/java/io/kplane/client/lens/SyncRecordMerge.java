package io.kplane.client.lens;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.kplane.api.json.Json;
import io.kplane.api.lens.SyncRecord;
import io.kplane.api.lens.SyncRecordEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * How a SyncRecord's list is rewritten: the stored entries plus the new ones, oldest first, without
 * duplicates (a retried write), without entries older than {@link #MAX_AGE} (cluster time), the newest
 * {@link SyncRecord#MAX_RECORDS}, and the oldest dropped until the list encodes to at most
 * {@link #MAX_BYTES}.
 */
public final class SyncRecordMerge {
    public static final Duration MAX_AGE = Duration.ofSeconds(SyncRecord.MAX_AGE_SECONDS);
    public static final int MAX_BYTES = 16 * 1024;

    private SyncRecordMerge() {}

    public static List<SyncRecordEntry> merge(List<SyncRecordEntry> stored, List<SyncRecordEntry> added, Instant now) {
        List<SyncRecordEntry> all = new ArrayList<>(stored.size() + added.size());
        Instant oldest = now.minus(MAX_AGE);
        for (SyncRecordEntry e : concat(stored, added)) {
            if (e == null || e.time() == null || e.time().isBefore(oldest)) {
                continue;
            }
            if (all.stream().noneMatch(k -> sameEntry(k, e))) {
                all.add(e);
            }
        }
        all.sort(Comparator.comparing(SyncRecordEntry::time)); // stable: one process's records keep their order
        collapseRepeats(all);
        List<SyncRecordEntry> kept =
                new ArrayList<>(all.subList(Math.max(0, all.size() - SyncRecord.MAX_RECORDS), all.size()));
        while (kept.size() > 1 && bytes(kept) > MAX_BYTES) {
            kept.remove(0);
        }
        return kept;
    }

    /**
     * An entry just like the one before it (same component, controller, decision, reason and "saw", no
     * triggers, no events, at most one write, no error) replaces it and counts it in {@code repeated}: a
     * kubelet writing the same status again and again would otherwise push its start out of the list.
     */
    static void collapseRepeats(List<SyncRecordEntry> entries) {
        for (int i = entries.size() - 1; i > 0; i--) {
            SyncRecordEntry later = entries.get(i);
            SyncRecordEntry earlier = entries.get(i - 1);
            if (repeatable(later)
                    && repeatable(earlier)
                    && Objects.equals(later.component(), earlier.component())
                    && Objects.equals(later.controller(), earlier.controller())
                    && Objects.equals(later.decision(), earlier.decision())
                    && Objects.equals(later.reason(), earlier.reason())
                    && Objects.equals(later.saw(), earlier.saw())) {
                int n = 1
                        + (earlier.repeated() == null ? 0 : earlier.repeated())
                        + (later.repeated() == null ? 0 : later.repeated());
                entries.set(i - 1, later.withRepeated(n));
                entries.remove(i);
            }
        }
    }

    private static boolean repeatable(SyncRecordEntry e) {
        return (e.triggers() == null || e.triggers().isEmpty())
                && (e.events() == null || e.events().isEmpty())
                && (e.writes() == null || e.writes().size() <= 1)
                && e.error() == null;
    }

    private static List<SyncRecordEntry> concat(List<SyncRecordEntry> a, List<SyncRecordEntry> b) {
        List<SyncRecordEntry> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static boolean sameEntry(SyncRecordEntry a, SyncRecordEntry b) {
        return Objects.equals(a.time(), b.time())
                && Objects.equals(a.seq(), b.seq())
                && Objects.equals(a.component(), b.component());
    }

    static int bytes(List<SyncRecordEntry> entries) {
        try {
            return Json.mapper().writeValueAsBytes(entries).length;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
