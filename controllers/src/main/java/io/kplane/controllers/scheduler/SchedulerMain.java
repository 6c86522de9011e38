package io.kplane.controllers.scheduler;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.DurationConverter;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code scheduler}: binds pending pods to Ready nodes, as its own process. */
@Command(
        name = "scheduler",
        mixinStandardHelpOptions = true,
        description = "Binds pending pods to Ready nodes (nodeSelector, pod capacity, least-loaded node).")
public final class SchedulerMain extends ComponentMain {
    @Option(
            names = "--unschedulable-retry",
            defaultValue = "60s",
            converter = DurationConverter.class,
            description =
                    "how often an unschedulable pod is tried again even if no node changed (default: ${DEFAULT-VALUE})")
    Duration retryPeriod;

    @Override
    protected ControllerComponent component() {
        return new SchedulerComponent(retryPeriod);
    }

    public static void main(String[] args) {
        exit(new SchedulerMain(), args);
    }
}
