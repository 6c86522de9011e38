package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Completion indexes of Indexed Jobs: reading a pod's index, the compressed interval notation of
 * {@code status.completedIndexes} ({@code 1,3-5,7}: runs of three or more become {@code a-b}), and
 * choosing which indexes to create next.
 */
public final class IndexedCompletion {
    /** A pod without a valid index. */
    public static final int UNKNOWN = -1;

    private IndexedCompletion() {}

    /** The pod's completion index from its annotation (falling back to the label), or {@link #UNKNOWN}. */
    public static int indexOf(Pod pod) {
        Map<String, String> annotations = pod.metadata().annotationsOrEmpty();
        String value = annotations.get(Job.COMPLETION_INDEX_ANNOTATION);
        if (value == null) {
            value = pod.metadata().labelsOrEmpty().get(Job.COMPLETION_INDEX_ANNOTATION);
        }
        return parseIndex(value);
    }

    static int parseIndex(String value) {
        if (value == null || value.isEmpty() || value.length() > 10) {
            return UNKNOWN;
        }
        for (int i = 0; i < value.length(); i++) {
            if (!Character.isDigit(value.charAt(i))) {
                return UNKNOWN;
            }
        }
        long parsed = Long.parseLong(value);
        return parsed > Integer.MAX_VALUE ? UNKNOWN : (int) parsed;
    }

    /** Whether {@code index} is a real index of a Job with {@code completions} completions. */
    public static boolean isValid(int index, int completions) {
        return index != UNKNOWN && index < completions;
    }

    /** Formats sorted distinct indexes: {@code {1,3,4,5,7}} gives {@code "1,3-5,7"}. */
    public static String format(Collection<Integer> indexes) {
        List<Integer> sorted = new ArrayList<>(new TreeSet<>(indexes));
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < sorted.size()) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            if (out.length() > 0) {
                out.append(',');
            }
            if (j - i >= 2) {
                out.append(sorted.get(i)).append('-').append(sorted.get(j));
            } else {
                out.append(sorted.get(i));
                if (j > i) {
                    out.append(',').append(sorted.get(j));
                }
            }
            i = j + 1;
        }
        return out.toString();
    }

    /**
     * Parses the interval notation, keeping only indexes below {@code completions}; malformed parts
     * are skipped (the status may have been written by anyone).
     */
    public static TreeSet<Integer> parse(String text, int completions) {
        TreeSet<Integer> result = new TreeSet<>();
        if (text == null || text.isEmpty()) {
            return result;
        }
        for (String part : text.split(",", -1)) {
            String[] bounds = part.split("-", -1);
            int from = parseIndex(bounds[0]);
            int to = bounds.length == 2 ? parseIndex(bounds[1]) : bounds.length == 1 ? from : UNKNOWN;
            if (from == UNKNOWN || to == UNKNOWN || to < from) {
                continue;
            }
            for (int ix = from; ix <= to && ix < completions; ix++) {
                result.add(ix);
            }
        }
        return result;
    }

    /**
     * Succeeded indexes: the ones already in the status plus those of succeeded pods with a valid
     * index (only the first success per index counts, a set takes care of that).
     */
    public static TreeSet<Integer> succeededIndexes(Job job, Collection<Pod> pods) {
        int completions = job.spec().completions();
        TreeSet<Integer> result =
                parse(job.status() == null ? null : job.status().completedIndexes(), completions);
        for (Pod pod : pods) {
            if (PodStatus.SUCCEEDED.equals(pod.phase())) {
                int ix = indexOf(pod);
                if (isValid(ix, completions)) {
                    result.add(ix);
                }
            }
        }
        return result;
    }

    /**
     * The lowest {@code count} indexes below {@code completions} that neither succeeded nor have an
     * active pod.
     */
    public static List<Integer> firstPendingIndexes(
            Collection<Pod> activePods, TreeSet<Integer> succeeded, int count, int completions) {
        TreeSet<Integer> taken = new TreeSet<>(succeeded);
        for (Pod pod : activePods) {
            int ix = indexOf(pod);
            if (isValid(ix, completions)) {
                taken.add(ix);
            }
        }
        List<Integer> result = new ArrayList<>(count);
        for (int ix = 0; ix < completions && result.size() < count; ix++) {
            if (!taken.contains(ix)) {
                result.add(ix);
            }
        }
        return result;
    }
}
