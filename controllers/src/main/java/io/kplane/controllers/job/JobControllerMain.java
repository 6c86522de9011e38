package io.kplane.controllers.job;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.OptionSpecs;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;

/** {@code job-controller}: runs the Job controller as its own process. */
public final class JobControllerMain extends ComponentMain {
    public JobControllerMain() {
        super("job-controller", "Runs Jobs: creates their pods, tracks completions and failures, writes Job status.");
    }

    @Override
    protected void addOptions(CommandSpec spec) {
        spec.addOption(
                OptionSpecs.duration(
                        "--pod-failure-backoff",
                        "10s",
                        "backoffBase",
                        "first delay before re-creating a pod after a failure, doubling per failure (default: ${DEFAULT-VALUE})"));
        spec.addOption(OptionSpecs.duration(
                "--pod-failure-backoff-max",
                "6m",
                "backoffMax",
                "cap of the re-creation delay (default: ${DEFAULT-VALUE})"));
        spec.addOption(OptionSpecs.duration(
                "--pod-event-batch-period",
                "1s",
                "batchPeriod",
                "how long pod events are batched before a Job is synced (default: ${DEFAULT-VALUE})"));
    }

    @Override
    protected ControllerComponent component() {
        Duration backoffBase = value("--pod-failure-backoff");
        Duration backoffMax = value("--pod-failure-backoff-max");
        Duration batchPeriod = value("--pod-event-batch-period");
        JobSyncConfig config =
                JobSyncConfig.defaults().withBackoff(backoffBase, backoffMax).withPodEventBatchPeriod(batchPeriod);
        return new JobControllerComponent(config);
    }

    public static void main(String[] args) {
        exit(new JobControllerMain(), args);
    }
}
