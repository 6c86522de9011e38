package io.kplane.api.batch;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * UIDs of finished pods whose job-tracking finalizer is being removed and that are not yet counted in
 * the Job status.
 */
@RecordBuilder
public record UncountedTerminatedPods(List<String> succeeded, List<String> failed)
        implements UncountedTerminatedPodsBuilder.With {
    public List<String> succeededOrEmpty() {
        return succeeded == null ? List.of() : succeeded;
    }

    public List<String> failedOrEmpty() {
        return failed == null ? List.of() : failed;
    }
}
