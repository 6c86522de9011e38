package io.kplane.kubectl.print;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints the server's meta.k8s.io/v1 Tables as kubectl does: upper-case headers, the wide
 * ({@code priority > 0}) columns only with {@code -o wide}, a NAMESPACE column for
 * {@code --all-namespaces}, and {@code kind/} name prefixes when several kinds are printed together.
 */
public final class TablePrinter {
    private final boolean wide;
    private final boolean withNamespace;
    private final String namePrefix;
    private final RowPrinter rows = new RowPrinter();
    private List<Integer> visible;
    private int nameColumn = -1;

    public TablePrinter(boolean wide, boolean withNamespace, String namePrefix) {
        this.wide = wide;
        this.withNamespace = withNamespace;
        this.namePrefix = namePrefix;
    }

    /** Header and rows of a Table (the header once, even if called again for watch events). */
    public String print(JsonNode table, boolean headers) {
        List<List<String>> lines = new ArrayList<>();
        JsonNode columns = table.path("columnDefinitions");
        if (columns.isArray() && columns.size() > 0) {
            visible = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                JsonNode c = columns.get(i);
                if (wide || c.path("priority").asInt() == 0) {
                    visible.add(i);
                }
                if ("name".equals(c.path("format").asText()) && nameColumn < 0) {
                    nameColumn = i;
                }
            }
            if (headers) {
                List<String> header = new ArrayList<>();
                if (withNamespace) {
                    header.add("NAMESPACE");
                }
                for (int i : visible) {
                    header.add(columns.get(i).path("name").asText().toUpperCase(Locale.ROOT));
                }
                lines.add(header);
            }
        }
        if (visible == null) {
            return "";
        }
        for (JsonNode row : table.path("rows")) {
            lines.add(rowCells(row));
        }
        return rows.format(lines);
    }

    public List<String> rowCells(JsonNode row) {
        List<String> cells = new ArrayList<>();
        if (withNamespace) {
            cells.add(row.path("object").path("metadata").path("namespace").asText(""));
        }
        JsonNode values = row.path("cells");
        for (int i : visible) {
            JsonNode cell = values.path(i);
            String text = cell.isNull() || cell.isMissingNode() ? "<none>" : cell.asText();
            if (i == nameColumn && namePrefix != null) {
                text = namePrefix + "/" + text;
            }
            cells.add(text);
        }
        return cells;
    }
}
