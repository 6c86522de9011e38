package io.kplane.controllers.cronjob;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cronjob-controller}: runs the CronJob controller as its own process. */
@Command(
        name = "cronjob-controller",
        mixinStandardHelpOptions = true,
        description = "Creates Jobs from CronJobs at their schedule times and keeps their history.")
public final class CronJobControllerMain implements Callable<Integer> {
    @Mixin
    ControllerOptions options;

    @Override
    public Integer call() throws Exception {
        // schedule times follow the cluster Clock (kubectl-lite clock ..., docs/clock.md)
        return ComponentMain.run(new CronJobControllerComponent(), options);
    }

    public static void main(String[] args) {
        ComponentMain.exit(new CronJobControllerMain(), args);
    }
}
