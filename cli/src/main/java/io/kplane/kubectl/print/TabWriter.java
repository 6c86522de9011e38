package io.kplane.kubectl.print;

import java.util.ArrayList;
import java.util.List;

/**
 * Aligns tab-separated cells into columns the way Go's {@code text/tabwriter} does (which kubectl uses
 * for tables and describe): a cell is terminated by a tab, a column's width is computed over each block
 * of consecutive lines that have a cell in that column, and the last cell of a line is not padded.
 */
public final class TabWriter {
    private final int minWidth;
    private final int padding;
    private final List<List<String>> lines = new ArrayList<>();
    private final StringBuilder out = new StringBuilder();

    public TabWriter(int minWidth, int padding) {
        this.minWidth = minWidth;
        this.padding = padding;
    }

    /** kubectl get's writer: minimum width 6, padding 3. */
    public static TabWriter forTables() {
        return new TabWriter(6, 3);
    }

    /** kubectl describe's writer: no minimum width, padding 2. */
    public static TabWriter forDescribe() {
        return new TabWriter(0, 2);
    }

    /** Adds text; lines are split on newlines and cells on tabs. */
    public TabWriter write(String text) {
        String[] split = text.split("\n", -1);
        for (int i = 0; i < split.length; i++) {
            if (i == split.length - 1 && split[i].isEmpty()) {
                break;
            }
            List<String> cells = new ArrayList<>(List.of(split[i].split("\t", -1)));
            lines.add(cells);
        }
        return this;
    }

    public TabWriter line(String... cells) {
        lines.add(new ArrayList<>(List.of(cells)));
        return this;
    }

    /** Formats everything written so far. */
    public String flush() {
        format(new ArrayList<>(), 0, lines.size());
        lines.clear();
        String s = out.toString();
        out.setLength(0);
        return s;
    }

    private void format(List<Integer> widths, int line0, int line1) {
        int column = widths.size();
        int start = line0;
        for (int i = line0; i < line1; i++) {
            if (column >= lines.get(i).size() - 1) {
                continue;
            }
            writeLines(widths, start, i);
            start = i;
            int width = minWidth;
            int j = i;
            for (; j < line1; j++) {
                List<String> cells = lines.get(j);
                if (column >= cells.size() - 1) {
                    break;
                }
                width = Math.max(width, displayWidth(cells.get(column)) + padding);
            }
            widths.add(width);
            format(widths, start, j);
            widths.remove(widths.size() - 1);
            start = j;
            i = j - 1;
        }
        writeLines(widths, start, line1);
    }

    private void writeLines(List<Integer> widths, int line0, int line1) {
        for (int i = line0; i < line1; i++) {
            List<String> cells = lines.get(i);
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < cells.size(); c++) {
                String cell = cells.get(c);
                line.append(cell);
                if (c < widths.size() && c < cells.size() - 1) {
                    line.append(" ".repeat(Math.max(0, widths.get(c) - displayWidth(cell))));
                }
            }
            out.append(line).append('\n');
        }
    }

    private static int displayWidth(String s) {
        return s.codePointCount(0, s.length());
    }
}
