package io.kplane.controllers.scheduler;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.OptionSpecs;
import picocli.CommandLine.Model.CommandSpec;

/** {@code scheduler}: binds pending pods to Ready nodes, as its own process. */
public final class SchedulerMain extends ComponentMain {
    public SchedulerMain() {
        super("scheduler", "Binds pending pods to Ready nodes (nodeSelector, pod capacity, least-loaded node).");
    }

    @Override
    protected void addOptions(CommandSpec spec) {
        spec.addOption(OptionSpecs.duration(
                "--unschedulable-retry",
                "60s",
                "retryPeriod",
                "how often an unschedulable pod is tried again even if no node changed (default: ${DEFAULT-VALUE})"));
    }

    @Override
    protected ControllerComponent component() {
        return new SchedulerComponent(value("--unschedulable-retry"));
    }

    public static void main(String[] args) {
        exit(new SchedulerMain(), args);
    }
}
