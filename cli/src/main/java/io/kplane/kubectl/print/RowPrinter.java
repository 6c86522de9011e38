package io.kplane.kubectl.print;

import java.util.ArrayList;
import java.util.List;

/**
 * Aligns rows of cells into columns (minimum width 6, three spaces between columns, the last column
 * unpadded: kubectl's table writer), remembering widths across calls so the rows of {@code get -w}
 * line up with the header printed before them.
 */
public final class RowPrinter {
    private final List<Integer> widths = new ArrayList<>();

    public String format(List<List<String>> rows) {
        for (List<String> row : rows) {
            for (int i = 0; i < row.size() - 1; i++) {
                int w = Math.max(6, row.get(i).length() + 3);
                if (i >= widths.size()) {
                    widths.add(w);
                } else if (w > widths.get(i)) {
                    widths.set(i, w);
                }
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                out.append(cell);
                if (i < row.size() - 1) {
                    out.append(" ".repeat(Math.max(0, widths.get(i) - cell.length())));
                }
            }
            out.append('\n');
        }
        return out.toString();
    }
}
