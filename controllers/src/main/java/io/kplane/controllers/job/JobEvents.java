package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.core.EventType;

/** Events the Job controller records on a Job. */
public interface JobEvents {
    String NORMAL = EventType.NORMAL;
    String WARNING = EventType.WARNING;

    void record(Job job, String type, String reason, String message);
}
