package io.kplane.controllers.nodelifecycle;

import io.kplane.controllers.runtime.ComponentMain;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.OptionSpecs;
import picocli.CommandLine.Model.CommandSpec;

/** {@code node-lifecycle}: marks silent nodes Unknown and fails their pods, as its own process. */
public final class NodeLifecycleMain extends ComponentMain {
    public NodeLifecycleMain() {
        super(
                "node-lifecycle",
                "Marks nodes whose Lease is not renewed NotReady (Unknown) and fails their pods (DisruptionTarget).");
    }

    @Override
    protected void addOptions(CommandSpec spec) {
        spec.addOption(OptionSpecs.duration(
                "--node-monitor-grace-period",
                "40s",
                "gracePeriod",
                "how long a node may be silent before it is marked Unknown (default: ${DEFAULT-VALUE})"));
        spec.addOption(OptionSpecs.duration(
                "--node-monitor-period",
                "5s",
                "monitorPeriod",
                "how often node heartbeats are checked (default: ${DEFAULT-VALUE})"));
        spec.addOption(OptionSpecs.duration(
                "--pod-eviction-delay",
                "0s",
                "podEvictionDelay",
                "extra wait after a node is marked Unknown before its pods fail (default: ${DEFAULT-VALUE})"));
    }

    @Override
    protected ControllerComponent component() {
        return new NodeLifecycleComponent(
                value("--node-monitor-grace-period"), value("--node-monitor-period"), value("--pod-eviction-delay"));
    }

    public static void main(String[] args) {
        exit(new NodeLifecycleMain(), args);
    }
}
