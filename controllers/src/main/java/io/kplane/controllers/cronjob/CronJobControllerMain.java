package io.kplane.controllers.cronjob;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;

/** {@code cronjob-controller}: runs the CronJob controller as its own process. */
public final class CronJobControllerMain extends ComponentMain {
    public CronJobControllerMain() {
        super("cronjob-controller", "Creates Jobs from CronJobs at their schedule times and keeps their history.");
    }

    @Override
    protected ControllerComponent component() {
        // schedule times follow the cluster Clock (kubectl-lite clock ..., docs/clock.md)
        return new CronJobControllerComponent();
    }

    public static void main(String[] args) {
        exit(new CronJobControllerMain(), args);
    }
}
