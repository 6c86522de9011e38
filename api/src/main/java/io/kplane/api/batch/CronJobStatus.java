package io.kplane.api.batch;

import io.kplane.api.core.ObjectReference;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
import java.util.List;

/**
 * batch/v1 CronJobStatus.
 */
@RecordBuilder
public record CronJobStatus(List<ObjectReference> active, Instant lastScheduleTime, Instant lastSuccessfulTime)
        implements CronJobStatusBuilder.With {
    public List<ObjectReference> activeOrEmpty() {
        return active == null ? List.of() : active;
    }
}
