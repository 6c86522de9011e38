package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class StartStagesTest {
    @Test
    void theApiServerAndItsDatabaseStartFirstAndEveryOtherComponentAfterIt() {
        StartStages stages = StartStages.of(StackPlan.plan(
                StackOptions.local(Path.of(".kplane"), "127.0.0.1", 6443, 15432, null, 2, "process", false)));

        assertThat(stages.first()).extracting(ComponentSpec::name).containsExactly("postgres", "apiserver");
        assertThat(stages.gate().name()).isEqualTo("apiserver");
        assertThat(stages.then())
                .extracting(ComponentSpec::name)
                .containsExactly(
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
    }

    @Test
    void withAnExternalDatabaseTheApiServerStartsAlone() {
        StartStages stages = StartStages.of(StackPlan.plan(StackOptions.local(
                Path.of(".kplane"),
                "127.0.0.1",
                6443,
                15432,
                "postgresql://postgres@db.example:5432/kplane",
                1,
                "process",
                false)));

        assertThat(stages.first()).extracting(ComponentSpec::name).containsExactly("apiserver");
        assertThat(stages.then()).extracting(ComponentSpec::name).contains("scheduler", "kubelet-sim-1");
    }

    @Test
    void withoutAnApiServerEverythingStartsAtOnce() {
        ComponentSpec a = new ComponentSpec("a", "a", List.of(), java.util.Map.of(), 1, null, List.of());
        ComponentSpec b = new ComponentSpec("b", "b", List.of(), java.util.Map.of(), 2, null, List.of("a"));

        StartStages stages = StartStages.of(List.of(a, b));

        assertThat(stages.first()).containsExactly(a, b);
        assertThat(stages.gate()).isNull();
        assertThat(stages.then()).isEmpty();
    }
}
