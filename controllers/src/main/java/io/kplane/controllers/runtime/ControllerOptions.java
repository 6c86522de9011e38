package io.kplane.controllers.runtime;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The command-line options every controller process shares (a picocli mixin). A component main
 * adds its own options next to these with {@code @Mixin ControllerOptions options}.
 */
public final class ControllerOptions {
    @Option(
            names = "--server",
            description = "API server URL (default: from the kubeconfig, else http://127.0.0.1:6443)")
    public String server;

    @Option(names = "--kubeconfig", description = "kubeconfig file to read the server, token and TLS settings from")
    public Path kubeconfig;

    @Option(names = "--token", description = "bearer token for the API server")
    public String token;

    @Option(
            names = "--health-bind",
            defaultValue = "127.0.0.1",
            description = "address for /healthz and /metrics (default: ${DEFAULT-VALUE})")
    public String healthBind;

    @Option(
            names = "--health-port",
            defaultValue = "0",
            description = "port for /healthz and /metrics; 0 picks a free port (default: ${DEFAULT-VALUE})")
    public int healthPort;

    @Option(names = "--workers", description = "concurrent reconcile workers (default: the component's own)")
    public Integer workers;

    @Option(
            names = "--leader-elect",
            defaultValue = "true",
            arity = "0..1",
            fallbackValue = "true",
            description = "run only while holding the leader lease (default: ${DEFAULT-VALUE})")
    public boolean leaderElect;

    @Option(names = "--lease-name", description = "name of the leader-election Lease (default: the component name)")
    public String leaseName;

    @Option(
            names = "--lease-namespace",
            defaultValue = "kube-system",
            description = "namespace of the leader-election Lease (default: ${DEFAULT-VALUE})")
    public String leaseNamespace;

    @Option(
            names = "--lease-duration",
            defaultValue = "15s",
            converter = DurationConverter.class,
            description = "how long a lease is valid without renewal (default: ${DEFAULT-VALUE})")
    public java.time.Duration leaseDuration;

    @Option(
            names = "--renew-deadline",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "how long the leader keeps trying to renew before it gives up (default: ${DEFAULT-VALUE})")
    public java.time.Duration renewDeadline;

    @Option(
            names = "--retry-period",
            defaultValue = "2s",
            converter = DurationConverter.class,
            description = "interval between lease acquire/renew attempts (default: ${DEFAULT-VALUE})")
    public java.time.Duration retryPeriod;

    @Option(
            names = "--lens",
            defaultValue = "true",
            arity = "0..1",
            fallbackValue = "true",
            description = "record the control loop for /lens/* and the lens metrics (default: ${DEFAULT-VALUE})")
    public boolean lens;

    @Option(
            names = "--advertise-address",
            defaultValue = "127.0.0.1",
            description =
                    "host other components use to reach this one's health port (lens announcement; default: ${DEFAULT-VALUE})")
    public String advertiseAddress;

    public int workersOr(int componentDefault) {
        return workers == null ? componentDefault : workers;
    }
}
