package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

/**
 * deploy/docker-compose.yml must run every component exactly as the launcher does (same entry
 * point, arguments, ports), only with container host names; every command must parse with the
 * component's own command line (so an option it lacks fails the build); and docker-compose must accept
 * the file. deploy/compose-e2e.sh runs it for real.
 */
class ComposeFileTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path COMPOSE = ROOT.resolve("deploy/docker-compose.yml");

    /** The launcher's plan for the compose topology: service names as hosts, the docker runtime. */
    static StackOptions composeOptions() {
        return new StackOptions(
                Path.of("/var/lib/kplane"),
                "0.0.0.0",
                6443,
                5432,
                "postgresql://kplane:kplane@postgres:5432/kplane",
                1,
                "docker",
                false,
                "apiserver",
                "kubelet-sim-1",
                null);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> services() throws IOException {
        Map<String, Object> doc = new Yaml().load(Files.readString(COMPOSE));
        return (Map<String, Map<String, Object>>) doc.get("services");
    }

    @Test
    void everyComponentRunsWithTheLaunchersCommandAndPort() throws IOException {
        Map<String, Map<String, Object>> services = services();
        List<ComponentSpec> plan = StackPlan.plan(composeOptions());
        for (ComponentSpec component : plan) {
            Map<String, Object> service = services.get(component.name());
            assertThat(service).as("compose service for %s", component.name()).isNotNull();
            List<String> expected = new ArrayList<>();
            expected.add(component.entryPoint());
            expected.addAll(component.args());
            assertThat(service.get("command"))
                    .as("command of %s", component.name())
                    .isEqualTo(expected);
            assertThat(healthcheck(service))
                    .as("healthcheck of %s", component.name())
                    .contains("http://127.0.0.1:" + component.healthPort() + component.healthPath());
            component.env().forEach((k, v) -> assertThat(environment(service)).containsEntry(k, v));
        }
        assertThat(services.keySet())
                .containsExactlyInAnyOrderElementsOf(plan.stream()
                        .map(ComponentSpec::name)
                        .collect(java.util.stream.Collectors.collectingAndThen(
                                java.util.stream.Collectors.toList(), names -> {
                                    names.add("postgres");
                                    return names;
                                })));
    }

    @Test
    void everyServiceCommandParsesWithTheComponentsOwnCommandLine() throws IOException {
        services().forEach((name, service) -> {
            if (!(service.get("command") instanceof List<?> command)) {
                return; // the official postgres image's own command
            }
            List<String> argv = command.stream().map(String::valueOf).toList();
            assertThatCode(() -> ComponentCommandLines.parse(argv.get(0), argv.subList(1, argv.size())))
                    .as("service %s: %s", name, argv)
                    .doesNotThrowAnyException();
        });
    }

    @Test
    void aCommandWithAnOptionTheComponentLacksFails() {
        assertThatThrownBy(() -> ComponentCommandLines.parse(
                        "kubelet-sim", List.of("--node-name", "n", "--no-such-option", "x")))
                .isInstanceOf(CommandLine.UnmatchedArgumentException.class)
                .hasMessageContaining("--no-such-option");
        assertThatThrownBy(() -> ComponentCommandLines.parse("no-such-component", List.of()))
                .hasMessageContaining("no-such-component");
    }

    @Test
    void theLaunchersLocalPlanParsesToo() {
        StackOptions local =
                StackOptions.local(Path.of("/tmp/kplane"), "127.0.0.1", 6443, 15432, null, 2, "process", true);
        for (ComponentSpec c : StackPlan.plan(local)) {
            assertThatCode(() -> ComponentCommandLines.parse(c.entryPoint(), c.args()))
                    .as("%s: %s", c.name(), c.args())
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void databaseIsTheOfficialImageWithAHealthcheckAndANamedVolume() throws IOException {
        Map<String, Object> postgres = services().get("postgres");
        assertThat((String) postgres.get("image")).startsWith("postgres:");
        assertThat(healthcheck(postgres)).contains("pg_isready");
        assertThat(postgres.get("volumes").toString()).contains("kplane-db:/var/lib/postgresql/data");
    }

    @Test
    void kubeletUsesTheDockerRuntimeThroughTheMountedSocket() throws IOException {
        Map<String, Object> kubelet = services().get(StackPlan.kubeletName(1));
        assertThat(environment(kubelet)).containsEntry("DOCKER_HOST", "unix:///var/run/docker.sock");
        assertThat(kubelet.get("volumes").toString()).contains("/var/run/docker.sock:/var/run/docker.sock");
    }

    @Test
    void dockerComposeValidatesTheFile() throws Exception {
        Path binary = Path.of("/usr/bin/docker-compose");
        Assumptions.assumeTrue(
                Files.isExecutable(binary),
                "docker-compose is not installed (.ci/run installs it); skipping its offline validation");
        Process p = new ProcessBuilder(binary.toString(), "-f", COMPOSE.toString(), "config", "--quiet")
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("docker-compose config output: %s", output).isZero();
    }

    @SuppressWarnings("unchecked")
    private static String healthcheck(Map<String, Object> service) {
        Map<String, Object> hc = (Map<String, Object>) service.get("healthcheck");
        return hc == null ? "" : String.valueOf(hc.get("test"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> environment(Map<String, Object> service) {
        Object env = service.get("environment");
        return env instanceof Map ? (Map<String, Object>) env : Map.of();
    }
}
