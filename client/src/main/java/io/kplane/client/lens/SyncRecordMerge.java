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

    private SyncRecordMerge() {
    }

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
        List<SyncRecordEntry> kept = new ArrayList<>(all.subList(Math.max(0, all.size() - SyncRecord.MAX_RECORDS),
                all.size()));
        while (kept.size() > 1 && bytes(kept) > MAX_BYTES) {
            kept.remove(0);
        }
        return kept;
    }

    private static List<SyncRecordEntry> concat(List<SyncRecordEntry> a, List<SyncRecordEntry> b) {
        List<SyncRecordEntry> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static boolean sameEntry(SyncRecordEntry a, SyncRecordEntry b) {
        return Objects.equals(a.time(), b.time()) && Objects.equals(a.seq(), b.seq())
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
