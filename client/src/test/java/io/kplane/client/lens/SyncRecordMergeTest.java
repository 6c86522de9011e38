package io.kplane.client.lens;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.lens.SyncRecord;
import io.kplane.api.lens.SyncRecordEntry;
import io.kplane.api.lens.SyncRecordNames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bounds of a persisted SyncRecord: count, age, bytes, truncated lists, names. */
class SyncRecordMergeTest {
    private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

    private static SyncRecordEntry entry(Instant time, long seq, String reason) {
        return new SyncRecordEntry(
                time,
                seq,
                "job-controller",
                "job",
                "1",
                List.of(),
                null,
                Map.of(),
                "tracking",
                reason,
                List.of(),
                null,
                List.of(),
                null,
                1.0,
                null,
                null,
                null);
    }

    @Test
    void keepsTheNewestTenWithinTheHourWithoutDuplicates() {
        List<SyncRecordEntry> stored = new ArrayList<>();
        stored.add(entry(NOW.minusSeconds(3601), 1, "too old"));
        for (int i = 0; i < 8; i++) {
            stored.add(entry(NOW.minusSeconds(100 - i), 10 + i, "stored " + i));
        }
        List<SyncRecordEntry> added = List.of(
                stored.get(8),
                entry(NOW.minusSeconds(5), 40, "new a"),
                entry(NOW.minusSeconds(4), 41, "new b"),
                entry(NOW.minusSeconds(3), 42, "new c"));
        List<SyncRecordEntry> merged = SyncRecordMerge.merge(stored, added, NOW);
        assertThat(merged).hasSize(SyncRecord.MAX_RECORDS);
        assertThat(merged)
                .extracting(SyncRecordEntry::reason)
                .doesNotContain("too old")
                .startsWith("stored 1")
                .endsWith("new a", "new b", "new c")
                .doesNotHaveDuplicates();
    }

    @Test
    void repeatedStatusWritesCollapseIntoTheLatest() {
        List<SyncRecordEntry> added = new ArrayList<>();
        added.add(new SyncRecordEntry(
                NOW.minusSeconds(9),
                1L,
                "kubelet-n",
                "pod-worker",
                "1",
                List.of(),
                null,
                Map.of(),
                "Started",
                "Started container main",
                List.of(),
                null,
                List.of(new SyncRecordEntry.EventNote("Normal", "Started", "Started container main")),
                null,
                null,
                null,
                null,
                null));
        for (int i = 0; i < 12; i++) {
            added.add(new SyncRecordEntry(
                    NOW.minusSeconds(8 - i / 2),
                    2L + i,
                    "kubelet-n",
                    "pod-worker",
                    "1",
                    List.of(),
                    null,
                    Map.of("phase", "Succeeded"),
                    "status-written",
                    null,
                    List.of(new SyncRecordEntry.Write(
                            "updateStatus", "pods", "default/p", String.valueOf(30 + i), null)),
                    null,
                    List.of(),
                    null,
                    null,
                    null,
                    null,
                    null));
        }
        List<SyncRecordEntry> merged = SyncRecordMerge.merge(List.of(), added, NOW);
        assertThat(merged).extracting(SyncRecordEntry::decision).containsExactly("Started", "status-written");
        assertThat(merged.get(1).repeated()).isEqualTo(11);
        assertThat(merged.get(1).writes().get(0).rv()).isEqualTo("41");
        // merging again (the next write) keeps counting
        SyncRecordEntry next = new SyncRecordEntry(
                NOW.minusSeconds(1),
                99L,
                "kubelet-n",
                "pod-worker",
                "1",
                List.of(),
                null,
                Map.of("phase", "Succeeded"),
                "status-written",
                null,
                List.of(new SyncRecordEntry.Write("updateStatus", "pods", "default/p", "50", null)),
                null,
                List.of(),
                null,
                null,
                null,
                null,
                null);
        List<SyncRecordEntry> again = SyncRecordMerge.merge(merged, List.of(next), NOW);
        assertThat(again).hasSize(2);
        assertThat(again.get(1).repeated()).isEqualTo(12);
        assertThat(again.get(1).writes().get(0).rv()).isEqualTo("50");
    }

    @Test
    void dropsTheOldestUntilTheListFitsTheByteCap() {
        String big = "x".repeat(SyncRecordEntries.MAX_TEXT);
        List<SyncRecordEntry> added = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            List<SyncRecordEntry.Write> writes = new ArrayList<>();
            for (int w = 0; w < SyncRecordEntries.MAX_WRITES; w++) {
                writes.add(new SyncRecordEntry.Write("create", "pods", "default/p", "1", big));
            }
            added.add(new SyncRecordEntry(
                    NOW.minusSeconds(10 - i),
                    (long) i,
                    "c",
                    "job",
                    "1",
                    List.of(),
                    null,
                    Map.of(),
                    "d",
                    big,
                    writes,
                    null,
                    List.of(),
                    null,
                    1.0,
                    null,
                    big,
                    null));
        }
        List<SyncRecordEntry> merged = SyncRecordMerge.merge(List.of(), added, NOW);
        assertThat(SyncRecordMerge.bytes(merged)).isLessThanOrEqualTo(SyncRecordMerge.MAX_BYTES);
        assertThat(merged).isNotEmpty().last().isEqualTo(added.get(9));
    }

    @Test
    void aSyncRecordKeepsTheFirstAndLatestTriggersAndCountsTheRest() {
        List<SyncSummary.Trigger> triggers = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            triggers.add(new SyncSummary.Trigger("MODIFIED", "pods", "default/pi-" + i, String.valueOf(100 + i), NOW));
        }
        List<SyncSummary.Write> writes = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            writes.add(new SyncSummary.Write("create", "pods", "default/pi-" + i, "2" + i, null));
        }
        SyncSummary sync = new SyncSummary(
                triggers,
                2,
                Map.of("active", 3, "note", "y".repeat(1000)),
                "pods_created",
                null,
                writes,
                List.of(),
                2.5,
                1000L,
                null);
        LensRecord record = new LensRecord(
                7, NOW, "job-controller", "job", "sync", "sync", "jobs", "default/pi", "99", "u", null, sync);
        SyncRecordEntry e = SyncRecordEntries.of(record);
        assertThat(e.triggers()).hasSize(SyncRecordEntries.MAX_TRIGGERS);
        assertThat(e.triggers().get(0).key()).isEqualTo("default/pi-0");
        assertThat(e.triggers().get(SyncRecordEntries.MAX_TRIGGERS - 1).key()).isEqualTo("default/pi-8");
        assertThat(e.triggersDropped()).isEqualTo(2 + 9 - SyncRecordEntries.MAX_TRIGGERS);
        assertThat(e.writes()).hasSize(SyncRecordEntries.MAX_WRITES);
        assertThat(e.writesDropped()).isEqualTo(12 - SyncRecordEntries.MAX_WRITES);
        assertThat((String) e.saw().get("note")).hasSize(SyncRecordEntries.MAX_TEXT);
        assertThat(e.requeueAfterMs()).isEqualTo(1000L);
    }

    @Test
    void namesAreDnsSubdomainsUniquePerObjectAndController() {
        assertThat(SyncRecordNames.name("pi", "job", "job")).isEqualTo("pi.job.job");
        assertThat(SyncRecordNames.name("pi-x", "pod", "job_orphan_pod")).isEqualTo("pi-x.pod.job-orphan-pod");
        String longName = "a".repeat(240) + ".b";
        String n1 = SyncRecordNames.name(longName, "pod", "pod-worker");
        String n2 = SyncRecordNames.name(longName, "pod", "garbagecollector");
        assertThat(n1)
                .hasSizeLessThanOrEqualTo(253)
                .matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")
                .isNotEqualTo(n2);
        assertThat(SyncRecordNames.namespace(null)).isEqualTo("kube-system");
        assertThat(SyncRecordNames.namespace("team")).isEqualTo("team");
    }
}
