package io.kplane.controllers.cronjob;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import picocli.CommandLine.Command;

/** {@code cronjob-controller}: runs the CronJob controller as its own process. */
@Command(
        name = "cronjob-controller",
        mixinStandardHelpOptions = true,
        description = "Creates Jobs from CronJobs at their schedule times and keeps their history.")
public final class CronJobControllerMain extends ComponentMain {
    @Override
    protected ControllerComponent component() {
        // schedule times follow the cluster Clock (kubectl-lite clock ..., docs/clock.md)
        return new CronJobControllerComponent();
    }

    public static void main(String[] args) {
        exit(new CronJobControllerMain(), args);
    }
}
