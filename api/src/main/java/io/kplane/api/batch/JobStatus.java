package io.kplane.api.batch;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
import java.util.List;

/**
 * batch/v1 JobStatus.
 */
@RecordBuilder
public record JobStatus(
        List<JobCondition> conditions,
        Instant startTime,
        Instant completionTime,
        Integer active,
        Integer succeeded,
        Integer failed,
        Integer terminating,
        String completedIndexes,
        String failedIndexes,
        UncountedTerminatedPods uncountedTerminatedPods,
        Integer ready)
        implements JobStatusBuilder.With {
    public List<JobCondition> conditionsOrEmpty() {
        return conditions == null ? List.of() : conditions;
    }

    /** The condition of the given type, or {@code null}. */
    public JobCondition condition(String type) {
        for (JobCondition c : conditionsOrEmpty()) {
            if (type.equals(c.type())) {
                return c;
            }
        }
        return null;
    }

    /** Whether a condition of this type exists with status True. */
    public boolean hasTrueCondition(String type) {
        JobCondition c = condition(type);
        return c != null && c.isTrue();
    }
}
