package io.kplane.controllers.job;

import io.kplane.api.batch.Job;

/** Events the Job controller records on a Job. */
public interface JobEvents {
    String NORMAL = "Normal";
    String WARNING = "Warning";

    void record(Job job, String type, String reason, String message);
}
