package io.kplane.apiserver.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * The server-side columns of one kind, as kubectl's printers define them: the column definitions and
 * the pre-formatted cells of one object's row (always including the wide columns).
 */
public interface ResourcePrinter {

    List<TableColumn> columns();

    /** One cell per column; {@code now} is the reference for ages and durations. */
    List<Object> cells(JsonNode object, Instant now);
}
