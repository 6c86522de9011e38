package io.kplane.apiserver.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.apiserver.codec.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Turns objects into meta.k8s.io/v1 {@code Table}s, the form kubectl's human-readable {@code get}
 * asks for with {@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io}. Lists, single objects
 * and watch events each become a Table; in a watch only the first event carries the column
 * definitions, as kube-apiserver does.
 */
public final class TableRenderer {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** {@code includeObject}: what {@code rows[].object} holds. */
    public enum IncludeObject {
        NONE,
        METADATA,
        OBJECT;

        /** The query parameter's value; absent or unknown means {@code Metadata}, like kube-apiserver. */
        public static IncludeObject parse(String value) {
            if (value == null) {
                return METADATA;
            }
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "none" -> NONE;
                case "object" -> OBJECT;
                default -> METADATA;
            };
        }
    }

    private final Clock clock;

    public TableRenderer(Clock clock) {
        this.clock = clock;
    }

    public TableRenderer() {
        this(Clock.systemUTC());
    }

    /**
     * True when the client's preferred representation is a Table: the first alternative of the Accept
     * header that the server can produce is {@code application/json;as=Table;g=meta.k8s.io;v=v1|v1beta1}.
     */
    public static boolean wantsTable(String accept) {
        for (MediaType type : MediaType.parseAccept(accept)) {
            if (isTable(type)) {
                return true;
            }
            if (type.admitsJson() && type.param("as") == null) {
                return false;
            }
        }
        return false;
    }

    private static boolean isTable(MediaType type) {
        return type.is("application/json")
                && "Table".equals(type.param("as"))
                && "meta.k8s.io".equals(type.param("g"))
                && ("v1".equals(type.param("v")) || "v1beta1".equals(type.param("v")));
    }

    /** A list response: one row per item, the list's resourceVersion and continue token. */
    public ObjectNode list(
            String kind, List<JsonNode> items, String resourceVersion, String continueToken, IncludeObject include) {
        ResourcePrinter printer = Printers.forKind(kind);
        Instant now = clock.instant();
        ObjectNode table = header(printer, resourceVersion, true);
        if (continueToken != null && !continueToken.isEmpty()) {
            ((ObjectNode) table.get("metadata")).put("continue", continueToken);
        }
        ArrayNode rows = table.putArray("rows");
        for (JsonNode item : items) {
            rows.add(row(printer, kind, item, include, now));
        }
        return table;
    }

    /** A single GET: a one-row Table carrying the object's resourceVersion. */
    public ObjectNode single(String kind, JsonNode object, IncludeObject include) {
        return oneRow(kind, object, include, true);
    }

    /**
     * The object of one watch event. {@code withColumns} is true for the first event of a stream only;
     * later events leave {@code columnDefinitions} null, which kubectl prints without a new header.
     */
    public ObjectNode watchEvent(String kind, JsonNode object, IncludeObject include, boolean withColumns) {
        return oneRow(kind, object, include, withColumns);
    }

    private ObjectNode oneRow(String kind, JsonNode object, IncludeObject include, boolean withColumns) {
        ResourcePrinter printer = Printers.forKind(kind);
        ObjectNode table =
                header(printer, object.path("metadata").path("resourceVersion").asText(""), withColumns);
        table.putArray("rows").add(row(printer, kind, object, include, clock.instant()));
        return table;
    }

    private static ObjectNode header(ResourcePrinter printer, String resourceVersion, boolean withColumns) {
        ObjectNode table = NODES.objectNode();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/v1");
        ObjectNode meta = table.putObject("metadata");
        if (resourceVersion != null && !resourceVersion.isEmpty()) {
            meta.put("resourceVersion", resourceVersion);
        }
        if (withColumns) {
            ArrayNode columns = table.putArray("columnDefinitions");
            for (TableColumn c : printer.columns()) {
                columns.addObject()
                        .put("name", c.name())
                        .put("type", c.type())
                        .put("format", c.format())
                        .put("description", c.description())
                        .put("priority", c.priority());
            }
        } else {
            table.putNull("columnDefinitions");
        }
        return table;
    }

    private static ObjectNode row(
            ResourcePrinter printer, String kind, JsonNode item, IncludeObject include, Instant now) {
        ObjectNode row = NODES.objectNode();
        ArrayNode cells = row.putArray("cells");
        for (Object cell : printer.cells(item, now)) {
            if (cell instanceof Number n) {
                cells.add(n.longValue());
            } else if (cell instanceof Boolean b) {
                cells.add(b);
            } else {
                cells.add(String.valueOf(cell));
            }
        }
        switch (include) {
            case OBJECT -> row.set("object", withTypeMeta(item, kind));
            case METADATA -> {
                ObjectNode partial = row.putObject("object");
                partial.put("kind", "PartialObjectMetadata");
                partial.put("apiVersion", "meta.k8s.io/v1");
                partial.set("metadata", item.path("metadata").isObject() ? item.get("metadata") : NODES.objectNode());
            }
            case NONE -> {}
        }
        return row;
    }

    private static JsonNode withTypeMeta(JsonNode item, String kind) {
        if (item.has("kind") || !item.isObject()) {
            return item;
        }
        ObjectNode copy = ((ObjectNode) item).deepCopy();
        copy.put("kind", kind);
        return copy;
    }
}
