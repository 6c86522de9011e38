package io.kplane.apiserver.kubectl;

import static io.kplane.apiserver.kubectl.ObjectFields.at;
import static io.kplane.apiserver.kubectl.ObjectFields.text;
import static io.kplane.apiserver.kubectl.ObjectFields.time;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.util.HumanDuration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * core/v1 Events: LAST SEEN TYPE REASON OBJECT MESSAGE, wide SUBOBJECT SOURCE FIRST SEEN COUNT NAME
 * (cells in kubectl's wide order, where the wide columns are interleaved).
 */
final class EventPrinter implements ResourcePrinter {
    private static final List<TableColumn> COLUMNS = List.of(
            TableColumn.of("Last Seen", "The time at which the most recent occurrence of this event was recorded."),
            TableColumn.of("Type", "Type of this event (Normal, Warning), new types could be added in the future"),
            TableColumn.of(
                    "Reason",
                    "This should be a short, machine understandable string that gives the reason "
                            + "for the transition into the object's current status."),
            TableColumn.of("Object", "The object that this event is about."),
            TableColumn.wide(
                    "Subobject",
                    "If referring to a piece of an object instead of an entire object, this "
                            + "string should contain a valid JSON/Go field access statement."),
            TableColumn.wide("Source", "The component reporting this event."),
            TableColumn.of("Message", "A human-readable description of the status of this operation."),
            TableColumn.wide("First Seen", "The time at which the event was first recorded."),
            TableColumn.wide("Count", "The number of times this event has occurred."),
            new TableColumn("Name", "string", "name", "Name must be unique within a namespace.", 1));

    @Override
    public List<TableColumn> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode event, Instant now) {
        Instant first = time(event, "firstTimestamp");
        String firstSeen =
                first != null ? HumanDuration.since(first, now) : HumanDuration.since(time(event, "eventTime"), now);
        Instant last = time(event, "lastTimestamp");
        String lastSeen = last != null ? HumanDuration.since(last, now) : firstSeen;
        long count = ObjectFields.number(event, "count");
        if (at(event, "series").isObject()) {
            lastSeen = HumanDuration.since(time(event, "series.lastObservedTime"), now);
            count = ObjectFields.number(event, "series.count");
        } else if (count == 0) {
            count = 1;
        }
        String kind = text(event, "involvedObject.kind").toLowerCase(Locale.ROOT);
        String name = text(event, "involvedObject.name");
        String target = name.isEmpty() ? kind : kind + "/" + name;
        String component = firstNonEmpty(text(event, "source.component"), text(event, "reportingComponent"));
        String instance = firstNonEmpty(text(event, "source.host"), text(event, "reportingInstance"));
        String source =
                component.isEmpty() ? "<unknown>" : instance.isEmpty() ? component : component + ", " + instance;
        return List.of(
                lastSeen,
                text(event, "type"),
                text(event, "reason"),
                target,
                text(event, "involvedObject.fieldPath"),
                source,
                text(event, "message").strip(),
                firstSeen,
                count,
                text(event, "metadata.name"));
    }

    private static String firstNonEmpty(String a, String b) {
        return a.isEmpty() ? b : a;
    }
}
