package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.lens.SyncRecord;
import io.kplane.api.lens.SyncRecordNames;
import io.kplane.api.util.Timestamps;
import io.kplane.kubectl.Api;
import io.kplane.kubectl.ResourceRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The persisted syncs of one object (docs/lens.md): the SyncRecords in the object's namespace
 * ({@code kube-system} for a cluster-scoped object) labelled with its uid, one per controller, and
 * their entries across controllers, newest first. Each entry carries its record's {@code controller}
 * and {@code component} when it lacks them.
 */
record SyncHistory(List<JsonNode> records, List<JsonNode> entries) {

    static SyncHistory of(Api api, JsonNode object) {
        JsonNode meta = object.path("metadata");
        String uid = meta.path("uid").asText();
        String ns = SyncRecordNames.namespace(meta.path("namespace").asText(""));
        JsonNode list = api.get(
                ResourceRef.collectionPath(ResourceTypes.SYNCRECORDS, ns),
                Api.query("labelSelector", SyncRecord.TARGET_UID_LABEL + "=" + uid),
                Api.JSON);
        List<JsonNode> records = new ArrayList<>();
        List<JsonNode> entries = new ArrayList<>();
        for (JsonNode record : list.path("items")) {
            records.add(record);
            for (JsonNode e : record.path("records")) {
                ObjectNode entry = e.deepCopy();
                if (!entry.hasNonNull("controller")) {
                    entry.put("controller", record.path("controller").asText());
                }
                if (!entry.hasNonNull("component")) {
                    entry.put("component", record.path("component").asText());
                }
                entries.add(entry);
            }
        }
        entries.sort(Comparator.comparing(SyncHistory::time).reversed());
        return new SyncHistory(records, entries);
    }

    /** Like {@link #of}, but empty when the server does not serve SyncRecords or the read fails. */
    static SyncHistory orEmpty(Api api, JsonNode object) {
        try {
            return of(api, object);
        } catch (RuntimeException e) {
            return new SyncHistory(List.of(), List.of());
        }
    }

    static Instant time(JsonNode entry) {
        Instant t = Timestamps.parseOrNull(entry.path("time").asText(""));
        return t == null ? Instant.EPOCH : t;
    }
}
