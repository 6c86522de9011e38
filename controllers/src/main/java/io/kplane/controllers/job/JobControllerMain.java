package io.kplane.controllers.job;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.DurationConverter;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code job-controller}: runs the Job controller as its own process. */
@Command(
        name = "job-controller",
        mixinStandardHelpOptions = true,
        description = "Runs Jobs: creates their pods, tracks completions and failures, writes Job status.")
public final class JobControllerMain extends ComponentMain {
    @Option(
            names = "--pod-failure-backoff",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description =
                    "first delay before re-creating a pod after a failure, doubling per failure (default: ${DEFAULT-VALUE})")
    Duration backoffBase;

    @Option(
            names = "--pod-failure-backoff-max",
            defaultValue = "6m",
            converter = DurationConverter.class,
            description = "cap of the re-creation delay (default: ${DEFAULT-VALUE})")
    Duration backoffMax;

    @Option(
            names = "--pod-event-batch-period",
            defaultValue = "1s",
            converter = DurationConverter.class,
            description = "how long pod events are batched before a Job is synced (default: ${DEFAULT-VALUE})")
    Duration batchPeriod;

    @Override
    protected ControllerComponent component() {
        JobSyncConfig config =
                JobSyncConfig.defaults().withBackoff(backoffBase, backoffMax).withPodEventBatchPeriod(batchPeriod);
        return new JobControllerComponent(config);
    }

    public static void main(String[] args) {
        exit(new JobControllerMain(), args);
    }
}
