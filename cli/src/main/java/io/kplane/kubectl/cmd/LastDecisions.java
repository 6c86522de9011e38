package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.kubectl.print.TabWriter;
import java.time.Instant;
import java.util.List;

/**
 * describe's "Last decisions:" section: the object's newest {@link #SHOWN} persisted syncs, one line
 * each (age, component/controller, decision and reason, writes), placed before Events. Absent when
 * there are none (lens off, no SyncRecords served), so describe reads as kubectl's then.
 */
final class LastDecisions {
    static final int SHOWN = 3;

    private LastDecisions() {}

    static String insertBeforeEvents(String described, SyncHistory history, Instant now) {
        if (history.entries().isEmpty()) {
            return described;
        }
        TabWriter w = TabWriter.forDescribe();
        w.write("Last decisions:\t(kubectl-lite why for details)\n");
        List<JsonNode> entries = history.entries();
        for (JsonNode e : entries.subList(0, Math.min(SHOWN, entries.size()))) {
            w.write("  " + SyncEntryFormat.oneLine(e, now) + "\n");
        }
        String section = w.flush();
        int events = described.startsWith("Events:") ? 0 : described.lastIndexOf("\nEvents:") + 1;
        return events <= 0 && !described.startsWith("Events:")
                ? described + section
                : described.substring(0, events) + section + described.substring(events);
    }
}
