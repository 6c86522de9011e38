package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class StackPlanTest {
    @Test
    void localStackHasEveryComponentOnLoopbackWithDistinctPorts() {
        StackOptions o = StackOptions.local(Path.of(".kplane"), "127.0.0.1", 6443, 15432, null, 2, "process", false);
        List<ComponentSpec> plan = StackPlan.plan(o);
        assertThat(plan)
                .extracting(ComponentSpec::name)
                .containsExactly(
                        "postgres",
                        "apiserver",
                        "job-controller",
                        "cronjob-controller",
                        "garbage-collector",
                        "ttl-controller",
                        "scheduler",
                        "node-lifecycle",
                        "local-path-provisioner",
                        "namespace-controller",
                        "kubelet-sim-1",
                        "kubelet-sim-2");
        assertThat(plan).extracting(ComponentSpec::healthPort).doesNotHaveDuplicates();
        assertThat(plan.get(1).args()).containsSequence("--db-url", "postgresql://postgres@127.0.0.1:15432/postgres");
        assertThat(plan.get(2).args()).containsExactly("--server", "http://127.0.0.1:6443", "--health-port", "10261");
        assertThat(plan.get(8).args())
                .containsSequence(
                        "--health-port",
                        "10266",
                        "--volume-dir",
                        Path.of(".kplane").resolve("volumes").toString());
        assertThat(plan.get(9).args()).containsExactly("--server", "http://127.0.0.1:6443", "--health-port", "10267");
        assertThat(plan.get(11).args()).containsSequence("--node-name", "node-2", "--port", "10252");
    }

    @Test
    void externalDatabaseReplacesTheEmbeddedOne() {
        StackOptions o = StackOptions.local(
                Path.of(".kplane"), "127.0.0.1", 6443, 15432, "postgresql://u:p@db:5432/k", 1, "process", false);
        List<ComponentSpec> plan = StackPlan.plan(o);
        assertThat(plan).extracting(ComponentSpec::name).doesNotContain("postgres");
        assertThat(plan.get(0).dependsOn()).isEmpty();
    }

    @Test
    void withAuthClientsReadTheTokenFromTheKubeconfig() {
        StackOptions o = StackOptions.local(Path.of("/s"), "127.0.0.1", 6443, 15432, null, 1, "process", true);
        List<ComponentSpec> plan = StackPlan.plan(o);
        assertThat(plan.get(1).args()).containsSequence("--token-auth-file", "/s/tokens.csv");
        assertThat(plan.get(2).args()).containsSequence("--kubeconfig", "/s/kubeconfig");
    }

    @Test
    void freePortsAreDistinctBindableAndPassedToTheirComponents() throws Exception {
        StackOptions o = StackOptions.local(Path.of(".kplane"), "127.0.0.1", 6443, 15432, null, 2, "process", false)
                .withFreePorts(true);
        List<ComponentSpec> plan = StackPlan.plan(o);
        List<ComponentSpec> components = plan.subList(2, plan.size()); // controllers and kubelets
        assertThat(components)
                .extracting(ComponentSpec::healthPort)
                .doesNotHaveDuplicates()
                .noneMatch(StackPlan.CONTROLLER_PORTS::containsValue);
        for (ComponentSpec c : components) {
            String flag = c.entryPoint().equals("kubelet-sim") ? "--port" : "--health-port";
            assertThat(c.args()).as(c.name()).containsSequence(flag, String.valueOf(c.healthPort()));
            try (java.net.ServerSocket socket = new java.net.ServerSocket()) {
                socket.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), c.healthPort()));
            }
        }
        // a kubelet's port+1 is its own too: never another component's
        List<Integer> ports = components.stream().map(ComponentSpec::healthPort).toList();
        plan.stream().filter(c -> c.entryPoint().equals("kubelet-sim")).forEach(k -> assertThat(ports)
                .doesNotContain(k.healthPort() + 1));
    }
}
