package io.kplane.controllers.runtime;

import io.kplane.client.time.Clock;
import java.time.Duration;

/**
 * A controller process whose start takes {@code startDelayMs} after it became leader (a slow cache
 * sync), for leader-election tests. Prints {@code WORKERS-START <epochMillis>} when its workers start
 * and {@code WORKERS-STOP <epochMillis>} when they stop. Args: serverUrl startDelayMs leaseDuration
 * renewDeadline retryPeriod (Go-style durations).
 */
public final class SlowStartControllerMain {
    private SlowStartControllerMain() {}

    public static void main(String[] args) throws Exception {
        ControllerOptions options = ControllerOptions.parse(
                "--server",
                args[0],
                "--lease-namespace",
                "default",
                "--lease-duration",
                args[2],
                "--renew-deadline",
                args[3],
                "--retry-period",
                args[4]);
        Duration startDelay = Duration.ofMillis(Long.parseLong(args[1]));
        ControllerComponent component = new ControllerComponent() {
            @Override
            public String name() {
                return "slow-start";
            }

            @Override
            public Running register(ControllerContext ctx) throws Exception {
                Thread.sleep(startDelay.toMillis());
                return new Running() {
                    @Override
                    public void startWorkers() {
                        System.out.println("WORKERS-START " + System.currentTimeMillis());
                        System.out.flush();
                    }

                    @Override
                    public void close() {
                        System.out.println("WORKERS-STOP " + System.currentTimeMillis());
                        System.out.flush();
                    }
                };
            }
        };
        System.exit(new ControllerProcess(component, options, Clock.system()).run());
    }
}
