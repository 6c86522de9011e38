package io.kplane.controllers.cronjob;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/** The CronJob controller as a {@link ControllerComponent}. */
public final class CronJobControllerComponent implements ControllerComponent {
    @Override
    public String name() {
        return CronJobController.NAME;
    }

    @Override
    public Running register(ControllerContext ctx) {
        CronJobController controller = new CronJobController(
                ctx.informers().informerFor(CronJob.class),
                ctx.informers().informerFor(Job.class),
                new ApiJobControl(ctx.client()),
                ctx.events(),
                ctx.clock(),
                ctx.workers());
        // Kubernetes' cronjob_controller_job_creation_skew_duration_seconds (Micrometer appends _seconds).
        Timer skew = Timer.builder("cronjob_controller_job_creation_skew_duration")
                .description("Time between a Job's scheduled time and its creation")
                .publishPercentileHistogram()
                .register(ctx.metrics());
        controller.onSync(outcome -> {
            if (outcome.created() != null) {
                skew.record(Duration.between(outcome.scheduledTime(), outcome.createdAt()));
            }
        });
        return new Running() {
            @Override
            public void startWorkers() {
                controller.startWorkers();
            }

            @Override
            public void close() {
                try {
                    controller.stop(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
