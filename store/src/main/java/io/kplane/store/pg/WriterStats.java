package io.kplane.store.pg;

/**
 * What the group-commit writer has done since the store opened, for benchmarks and diagnostics: is the
 * one writer the bound (busy nearly all the time) or idle between batches, and how large its batches
 * grow. Differences of two snapshots give a window's figures.
 *
 * @param batches    batches the writer sent (committed or failed)
 * @param writes     writes in those batches
 * @param busyNanos  time with a batch in flight (sent, not yet settled)
 * @param sizes      batches by size: 1, 2–3, 4–7, 8–15, 16–31, 32–63, 64–127, 128 and more
 */
public record WriterStats(long batches, long writes, long busyNanos, long[] sizes) {
    /** Upper bounds (exclusive) of {@link #sizes}' buckets but the last. */
    static final int[] SIZE_BOUNDS = {2, 4, 8, 16, 32, 64, 128};

    static int bucket(int size) {
        int i = 0;
        while (i < SIZE_BOUNDS.length && size >= SIZE_BOUNDS[i]) {
            i++;
        }
        return i;
    }

    /** This snapshot minus an earlier one. */
    public WriterStats minus(WriterStats earlier) {
        long[] d = new long[sizes.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = sizes[i] - earlier.sizes[i];
        }
        return new WriterStats(batches - earlier.batches, writes - earlier.writes, busyNanos - earlier.busyNanos, d);
    }

    /** The sum of two windows' figures. */
    public WriterStats plus(WriterStats other) {
        long[] d = new long[sizes.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = sizes[i] + other.sizes[i];
        }
        return new WriterStats(batches + other.batches, writes + other.writes, busyNanos + other.busyNanos, d);
    }

    /** E.g. {@code 1:3 2-3:10 16-31:200}: the non-empty buckets. */
    public String sizeHistogram() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] == 0) {
                continue;
            }
            int low = i == 0 ? 1 : SIZE_BOUNDS[i - 1];
            String range = i == SIZE_BOUNDS.length
                    ? low + "+"
                    : (SIZE_BOUNDS[i] - 1 == low ? Integer.toString(low) : low + "-" + (SIZE_BOUNDS[i] - 1));
            out.append(out.length() == 0 ? "" : " ").append(range).append(':').append(sizes[i]);
        }
        return out.toString();
    }
}
