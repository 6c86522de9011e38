package io.kplane.controllers.job;

import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;

/** The Job controller as a {@link ControllerComponent}. */
public final class JobControllerComponent implements ControllerComponent {
    public static final String NAME = "job-controller";
    private final JobSyncConfig config;

    public JobControllerComponent(JobSyncConfig config) {
        this.config = config;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int defaultWorkers() {
        return 5;
    }

    @Override
    public Running register(ControllerContext ctx) {
        return new JobController(ctx, config);
    }
}
