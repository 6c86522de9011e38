package io.kplane.apiserver.kubectl;

import static io.kplane.apiserver.kubectl.ObjectFields.list;
import static io.kplane.apiserver.kubectl.ObjectFields.text;
import static io.kplane.apiserver.kubectl.ObjectFields.time;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.util.HumanDuration;
import java.time.Instant;
import java.util.List;

/**
 * {@code kubectl get syncrecords}: NAME OBJECT CONTROLLER SYNCS LAST DECISION LAST SYNC (wide:
 * COMPONENT). OBJECT is {@code kind/name} of the target; LAST DECISION and LAST SYNC come from the
 * newest record (the last in the list).
 */
final class SyncRecordPrinter implements ResourcePrinter {
    private static final List<TableColumn> COLUMNS = List.of(
            TableColumn.nameColumn(),
            TableColumn.of("Object", "The object the syncs were about (kind/name)."),
            TableColumn.of("Controller", "The controller that synced it."),
            TableColumn.of("Syncs", "How many syncs are kept (at most 10).").withType("integer"),
            TableColumn.of("Last Decision", "The decision of the newest sync."),
            TableColumn.of("Last Sync", "How long ago the newest sync ended."),
            TableColumn.wide("Component", "The component process that wrote the records."));

    @Override
    public List<TableColumn> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode record, Instant now) {
        List<JsonNode> records = list(record, "records");
        JsonNode last = records.isEmpty() ? null : records.get(records.size() - 1);
        String decision = last == null ? "<none>" : text(last, "decision");
        Instant lastTime = last == null ? null : time(last, "time");
        return List.of(
                text(record, "metadata.name"),
                text(record, "target.kind") + "/" + text(record, "target.name"),
                text(record, "controller"),
                records.size(),
                decision.isEmpty() ? "<none>" : decision,
                lastTime == null ? "<none>" : HumanDuration.since(lastTime, now),
                text(record, "component"));
    }
}
