package io.kplane.controllers.nodelifecycle;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.DurationConverter;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code node-lifecycle}: marks silent nodes Unknown and fails their pods, as its own process. */
@Command(
        name = "node-lifecycle",
        mixinStandardHelpOptions = true,
        description =
                "Marks nodes whose Lease is not renewed NotReady (Unknown) and fails their pods (DisruptionTarget).")
public final class NodeLifecycleMain extends ComponentMain {
    @Option(
            names = "--node-monitor-grace-period",
            defaultValue = "40s",
            converter = DurationConverter.class,
            description = "how long a node may be silent before it is marked Unknown (default: ${DEFAULT-VALUE})")
    Duration gracePeriod;

    @Option(
            names = "--node-monitor-period",
            defaultValue = "5s",
            converter = DurationConverter.class,
            description = "how often node heartbeats are checked (default: ${DEFAULT-VALUE})")
    Duration monitorPeriod;

    @Option(
            names = "--pod-eviction-delay",
            defaultValue = "0s",
            converter = DurationConverter.class,
            description = "extra wait after a node is marked Unknown before its pods fail (default: ${DEFAULT-VALUE})")
    Duration podEvictionDelay;

    @Override
    protected ControllerComponent component() {
        return new NodeLifecycleComponent(gracePeriod, monitorPeriod, podEvictionDelay);
    }

    public static void main(String[] args) {
        exit(new NodeLifecycleMain(), args);
    }
}
