package io.kplane.controllers.runtime;

import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command-line options every controller process shares. {@link ComponentMain} adds them to each
 * component's command ({@link #addTo}) next to the component's own, and reads them back after parsing
 * ({@link #from}).
 */
public final class ControllerOptions {
    public String server;
    public Path kubeconfig;
    public String token;
    public String healthBind;
    public int healthPort;
    public Integer workers;
    public boolean leaderElect;
    public String leaseName;
    public String leaseNamespace;
    public Duration leaseDuration;
    public Duration renewDeadline;
    public Duration retryPeriod;
    public boolean lens;
    public String advertiseAddress;

    /** Adds the shared options to {@code spec}. */
    static void addTo(CommandSpec spec) {
        spec.addOption(OptionSpecs.of(
                "--server",
                String.class,
                null,
                "server",
                "API server URL (default: from the kubeconfig, else http://127.0.0.1:6443)"));
        spec.addOption(OptionSpecs.of(
                "--kubeconfig",
                Path.class,
                null,
                "kubeconfig",
                "kubeconfig file to read the server, token and TLS settings from"));
        spec.addOption(OptionSpecs.of("--token", String.class, null, "token", "bearer token for the API server"));
        spec.addOption(OptionSpecs.of(
                "--health-bind",
                String.class,
                "127.0.0.1",
                "healthBind",
                "address for /healthz and /metrics (default: ${DEFAULT-VALUE})"));
        spec.addOption(OptionSpecs.of(
                "--health-port",
                int.class,
                "0",
                "healthPort",
                "port for /healthz and /metrics; 0 picks a free port (default: ${DEFAULT-VALUE})"));
        spec.addOption(OptionSpecs.of(
                "--workers",
                Integer.class,
                null,
                "workers",
                "concurrent reconcile workers (default: the component's own)"));
        spec.addOption(OptionSpecs.switchOnByDefault(
                "--leader-elect",
                "leaderElect",
                "run only while holding the leader lease (default: ${DEFAULT-VALUE})"));
        spec.addOption(OptionSpecs.of(
                "--lease-name",
                String.class,
                null,
                "leaseName",
                "name of the leader-election Lease (default: the component name)"));
        spec.addOption(OptionSpecs.of(
                "--lease-namespace",
                String.class,
                "kube-system",
                "leaseNamespace",
                "namespace of the leader-election Lease (default: ${DEFAULT-VALUE})"));
        spec.addOption(OptionSpecs.duration(
                "--lease-duration",
                "15s",
                "leaseDuration",
                "how long a lease is valid without renewal (default: ${DEFAULT-VALUE})"));
        spec.addOption(OptionSpecs.duration(
                "--renew-deadline",
                "10s",
                "renewDeadline",
                "how long the leader keeps trying to renew before it gives up (default: ${DEFAULT-VALUE})"));
        spec.addOption(OptionSpecs.duration(
                "--retry-period",
                "2s",
                "retryPeriod",
                "interval between lease acquire/renew attempts (default: ${DEFAULT-VALUE})"));
        spec.addOption(OptionSpecs.switchOnByDefault(
                "--lens",
                "lens",
                "record the control loop for /lens/* and the lens metrics (default: ${DEFAULT-VALUE})"));
        spec.addOption(
                OptionSpecs.of(
                        "--advertise-address",
                        String.class,
                        "127.0.0.1",
                        "advertiseAddress",
                        "host other components use to reach this one's health port (lens announcement; default: ${DEFAULT-VALUE})"));
    }

    /** The shared options' values once {@code spec} has parsed a command line (defaults where absent). */
    static ControllerOptions from(CommandSpec spec) {
        ControllerOptions o = new ControllerOptions();
        o.server = value(spec, "--server");
        o.kubeconfig = value(spec, "--kubeconfig");
        o.token = value(spec, "--token");
        o.healthBind = value(spec, "--health-bind");
        o.healthPort = ComponentMain.<Integer>value(spec, "--health-port");
        o.workers = value(spec, "--workers");
        o.leaderElect = ComponentMain.<Boolean>value(spec, "--leader-elect");
        o.leaseName = value(spec, "--lease-name");
        o.leaseNamespace = value(spec, "--lease-namespace");
        o.leaseDuration = value(spec, "--lease-duration");
        o.renewDeadline = value(spec, "--renew-deadline");
        o.retryPeriod = value(spec, "--retry-period");
        o.lens = ComponentMain.<Boolean>value(spec, "--lens");
        o.advertiseAddress = value(spec, "--advertise-address");
        return o;
    }

    /** Parses {@code args} as the shared options alone (a process embedding {@link ControllerProcess}). */
    public static ControllerOptions parse(String... args) {
        CommandSpec spec = CommandSpec.create();
        addTo(spec);
        new CommandLine(spec).parseArgs(args);
        return from(spec);
    }

    private static <T> T value(CommandSpec spec, String option) {
        return ComponentMain.value(spec, option);
    }

    public int workersOr(int componentDefault) {
        return workers == null ? componentDefault : workers;
    }
}
