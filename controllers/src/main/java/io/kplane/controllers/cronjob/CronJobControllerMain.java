package io.kplane.controllers.cronjob;

import io.kplane.client.time.Clock;
import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerOptions;
import io.kplane.controllers.runtime.ControllerProcess;
import io.kplane.controllers.runtime.DurationConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code cronjob-controller}: runs the CronJob controller as its own process. */
@Command(name = "cronjob-controller", mixinStandardHelpOptions = true,
        description = "Creates Jobs from CronJobs at their schedule times and keeps their history.")
public final class CronJobControllerMain implements Callable<Integer> {
    @Mixin
    ControllerOptions options;

    @Option(names = "--clock-offset", defaultValue = "0s", converter = DurationConverter.class,
            description = "run this far ahead of the wall clock (for tests and demos; default: ${DEFAULT-VALUE})")
    Duration clockOffset;

    @Override
    public Integer call() throws Exception {
        Clock clock = clockOffset.isZero() ? Clock.system() : new OffsetClock(Clock.system(), clockOffset);
        return new ControllerProcess(new CronJobControllerComponent(), options, clock).run();
    }

    public static void main(String[] args) {
        ComponentMain.exit(new CronJobControllerMain(), args);
    }
}
