package io.kplane.controllers.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.controllers.ControllersMain;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The controllers' command models are built in code ({@link ComponentMain}, {@link OptionSpecs}); this
 * pins what the annotation models printed and parsed before: every component's {@code --help} text
 * byte for byte (the files under {@code io/kplane/controllers/help/} were printed by the annotated
 * commands), the shared options' defaults and conversions, and picocli's errors and exit codes.
 */
class ComponentHelpTest {

    static java.util.Set<String> components() {
        return ControllersMain.components();
    }

    @ParameterizedTest
    @MethodSource("components")
    void helpIsTheAnnotatedCommandsText(String component) throws Exception {
        Run run = run(component, "--help");

        assertThat(run.code).isZero();
        assertThat(run.out).isEqualTo(expectedHelp(component));
        assertThat(run.err).isEmpty();
    }

    @Test
    void theSharedOptionsDefaultAsBefore() {
        CommandSpec spec = ControllersMain.command("ttl-controller");
        new CommandLine(spec).parseArgs();
        ControllerOptions o = ControllerOptions.from(spec);

        assertThat(o.server).isNull();
        assertThat(o.kubeconfig).isNull();
        assertThat(o.token).isNull();
        assertThat(o.healthBind).isEqualTo("127.0.0.1");
        assertThat(o.healthPort).isZero();
        assertThat(o.workers).isNull();
        assertThat(o.workersOr(5)).isEqualTo(5);
        assertThat(o.leaderElect).isTrue();
        assertThat(o.leaseName).isNull();
        assertThat(o.leaseNamespace).isEqualTo("kube-system");
        assertThat(o.leaseDuration).isEqualTo(Duration.ofSeconds(15));
        assertThat(o.renewDeadline).isEqualTo(Duration.ofSeconds(10));
        assertThat(o.retryPeriod).isEqualTo(Duration.ofSeconds(2));
        assertThat(o.lens).isTrue();
        assertThat(o.advertiseAddress).isEqualTo("127.0.0.1");
    }

    @Test
    void theSharedOptionsParseAsBefore() {
        CommandSpec spec = ControllersMain.command("scheduler");
        new CommandLine(spec)
                .parseArgs(
                        "--server=http://127.0.0.1:1234",
                        "--kubeconfig",
                        "/tmp/kc",
                        "--token",
                        "t0k",
                        "--health-port",
                        "10259",
                        "--workers",
                        "3",
                        "--leader-elect=false",
                        "--lens",
                        "--lease-name",
                        "probe",
                        "--lease-duration",
                        "1m30s",
                        "--unschedulable-retry",
                        "5s");
        ControllerOptions o = ControllerOptions.from(spec);

        assertThat(o.server).isEqualTo("http://127.0.0.1:1234");
        assertThat(o.kubeconfig).isEqualTo(Path.of("/tmp/kc"));
        assertThat(o.token).isEqualTo("t0k");
        assertThat(o.healthPort).isEqualTo(10259);
        assertThat(o.workersOr(1)).isEqualTo(3);
        assertThat(o.leaderElect).isFalse();
        assertThat(o.lens).isTrue();
        assertThat(o.leaseName).isEqualTo("probe");
        assertThat(o.leaseDuration).isEqualTo(Duration.ofSeconds(90));
        assertThat((Duration) spec.findOption("--unschedulable-retry").getValue())
                .isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aComponentsOwnOptionsTakeTheirDefaults() {
        CommandSpec spec = ControllersMain.command("job-controller");
        new CommandLine(spec).parseArgs("--pod-event-batch-period", "100ms");

        assertThat((Duration) spec.findOption("--pod-failure-backoff").getValue())
                .isEqualTo(Duration.ofSeconds(10));
        assertThat((Duration) spec.findOption("--pod-failure-backoff-max").getValue())
                .isEqualTo(Duration.ofMinutes(6));
        assertThat((Duration) spec.findOption("--pod-event-batch-period").getValue())
                .isEqualTo(Duration.ofMillis(100));
        CommandSpec volumes = ControllersMain.command("local-path-provisioner");
        new CommandLine(volumes).parseArgs();
        assertThat((Path) volumes.findOption("--volume-dir").getValue()).isEqualTo(Path.of(".kplane/volumes"));
    }

    @Test
    void badInputIsPicocliMessageAndTheUsageWithExitCode2() throws Exception {
        Run badDuration = run("ttl-controller", "--lease-duration", "xyz");
        assertThat(badDuration.code).isEqualTo(2);
        assertThat(badDuration.err)
                .startsWith("Invalid value for option '--lease-duration': time: invalid duration \"xyz\""
                        + System.lineSeparator() + expectedHelp("ttl-controller"));

        Run negative = run("job-controller", "--pod-failure-backoff", "-1s");
        assertThat(negative.code).isEqualTo(2);
        assertThat(negative.err)
                .startsWith("Invalid value for option '--pod-failure-backoff': negative duration \"-1s\" is not"
                        + " allowed here");

        Run unknown = run("ttl-controller", "--nope");
        assertThat(unknown.code).isEqualTo(2);
        assertThat(unknown.err)
                .isEqualTo("Unknown option: '--nope'" + System.lineSeparator() + expectedHelp("ttl-controller"));
    }

    @Test
    void versionPrintsNothingAndExitsZeroAsBefore() throws Exception {
        Run version = run("garbage-collector", "--version");
        assertThat(version.code).isZero();
        assertThat(version.out).isEmpty();
    }

    private record Run(int code, String out, String err) {}

    /** Runs the command as ComponentMain.exit would, without exiting; --help and errors never start it. */
    private static Run run(String component, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(ControllersMain.command(component));
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static String expectedHelp(String component) throws Exception {
        try (InputStream in =
                ComponentHelpTest.class.getResourceAsStream("/io/kplane/controllers/help/" + component + ".txt")) {
            assertThat(in).as("help text of " + component).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\n", System.lineSeparator());
        }
    }
}
