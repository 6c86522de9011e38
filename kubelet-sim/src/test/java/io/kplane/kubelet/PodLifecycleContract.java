package io.kplane.kubelet;

import static io.kplane.kubelet.PodManifests.parse;
import static io.kplane.kubelet.PodManifests.shPod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodStatus;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Pod lifecycle behaviour every runtime must show, against a real API server and real containers
 * (host processes or Docker Engine containers). Subclasses pick the runtime.
 */
abstract class PodLifecycleContract {
    static KubeletFixture env;
    /** The image the manifests name; the docker tests may swap in a working busybox. */
    static String image = "busybox";

    @AfterAll
    static void stop() {
        if (env != null) {
            env.close();
            env = null;
        }
    }

    private static ContainerStatus main(Pod pod) {
        return pod.status().containerStatuses().get(0);
    }

    @Test
    void helloJobStyleContainerCompletes() throws Exception {
        env.create(shPod("hello", env.node, "Never", "date; echo Hello from the kplane cluster"));
        Pod pod = env.awaitPhase("hello", PodStatus.SUCCEEDED);

        ContainerStatus cs = main(pod);
        assertThat(cs.state().terminated().exitCode()).isZero();
        assertThat(cs.state().terminated().reason()).isEqualTo("Completed");
        assertThat(cs.state().terminated().startedAt()).isNotNull();
        assertThat(cs.state().terminated().finishedAt()).isNotNull();
        assertThat(cs.containerID()).contains("://");
        assertThat(cs.restartCount()).isZero();
        assertThat(pod.status().startTime()).isNotNull();
        assertThat(pod.status().hostIP()).isEqualTo("127.0.0.1");
        assertThat(pod.status().podIP()).isEqualTo("127.0.0.1");
        assertThat(pod.status().condition(PodCondition.READY).status()).isEqualTo("False");
        assertThat(pod.status().condition(PodCondition.READY).reason()).isEqualTo("PodCompleted");
        assertThat(pod.status().condition(PodCondition.INITIALIZED).status()).isEqualTo("True");
        assertThat(pod.status().condition(PodCondition.POD_SCHEDULED).status()).isEqualTo("True");
        assertThat(env.logs("hello", "main", "")).contains("Hello from the kplane cluster");
        assertThat(env.logs("hello", "main", "timestamps=true")).matches("(?s)\\d{4}-\\d\\d-\\d\\dT.*Z .*Hello.*");
    }

    @Test
    void piStyleComputationRunsToCompletion() throws Exception {
        env.create(
                shPod(
                        "pi",
                        env.node,
                        "Never",
                        "awk 'BEGIN { s = 0; for (k = 0; k < 20000; k++) s += (k % 2 ? -4 : 4) / (2 * k + 1); printf \"%.2f\\n\", s }'"));
        env.awaitPhase("pi", PodStatus.SUCCEEDED);
        assertThat(env.logs("pi", "main", "")).isEqualTo("3.14\n");
    }

    @Test
    void exitCodePropagatesAndNeverFails() {
        env.create(shPod("exit3", env.node, "Never", "echo failing; exit 3"));
        Pod pod = env.awaitPhase("exit3", PodStatus.FAILED);
        assertThat(main(pod).state().terminated().exitCode()).isEqualTo(3);
        assertThat(main(pod).state().terminated().reason()).isEqualTo("Error");
        assertThat(main(pod).restartCount()).isZero();
    }

    @Test
    void onFailureRestartsInPlaceWithCrashLoopBackOff() throws Exception {
        env.create(shPod("crashy", env.node, "OnFailure", "echo run; exit 1"));
        Pod pod = env.awaitPod(
                "crashy",
                p -> p.status() != null
                        && !p.status().containerStatusesOrEmpty().isEmpty()
                        && main(p).restartCount() >= 3);
        assertThat(pod.phase()).isEqualTo(PodStatus.RUNNING);
        ContainerStatus cs = main(pod);
        assertThat(cs.lastState().terminated()).isNotNull();
        assertThat(cs.lastState().terminated().exitCode()).isEqualTo(1);
        // between restarts the container waits in CrashLoopBackOff
        env.awaitPod(
                "crashy",
                p -> main(p).state().waiting() != null
                        && "CrashLoopBackOff".equals(main(p).state().waiting().reason()));
        // each attempt has its own log; previous=true serves the one before the latest
        assertThat(env.logs("crashy", "main", "previous=true")).isEqualTo("run\n");
        env.client.pods().inNamespace("default").delete("crashy");
        await().atMost(Duration.ofSeconds(30)).until(() -> env.find("crashy").isEmpty());
    }

    @Test
    void alwaysRestartsEvenAfterSuccess() {
        env.create(shPod("always", env.node, "Always", "echo once"));
        Pod pod = env.awaitPod(
                "always",
                p -> p.status() != null
                        && !p.status().containerStatusesOrEmpty().isEmpty()
                        && main(p).restartCount() >= 2);
        assertThat(pod.phase()).isEqualTo(PodStatus.RUNNING);
        assertThat(main(pod).lastState().terminated().reason()).isEqualTo("Completed");
        env.client.pods().inNamespace("default").delete("always");
        await().atMost(Duration.ofSeconds(30)).until(() -> env.find("always").isEmpty());
    }

    @Test
    void gracefulDeletionSendsSigtermToTheTrapThenRemovesThePod() throws Exception {
        env.create(shPod(
                "graceful",
                env.node,
                "Never",
                "trap 'echo got TERM; exit 0' TERM; echo started; while true; do sleep 0.1; done"));
        env.awaitPhase("graceful", PodStatus.RUNNING);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> env.logs("graceful", "main", "").contains("started"));
        InputStream follow = env.logStream("graceful", "main", "follow=true");
        CompletableFuture<String> followed = CompletableFuture.supplyAsync(() -> {
            try {
                return KubeletFixture.readAll(follow);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        env.client.pods().inNamespace("default").delete("graceful");
        assertThat(followed.get(20, TimeUnit.SECONDS)).contains("started").contains("got TERM");
        await().atMost(Duration.ofSeconds(30)).until(() -> env.find("graceful").isEmpty());
    }

    @Test
    void environmentFieldRefsAndExpansion() throws Exception {
        env.create(parse(
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: envy
                  namespace: default
                  labels: {app: demo}
                  annotations: {team: blue}
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  containers:
                  - name: main
                    image: busybox
                    env:
                    - {name: GREETING, value: hello}
                    - {name: MESSAGE, value: "$(GREETING) world"}
                    - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
                    - {name: POD_NS, valueFrom: {fieldRef: {fieldPath: metadata.namespace}}}
                    - {name: POD_UID, valueFrom: {fieldRef: {fieldPath: metadata.uid}}}
                    - {name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}
                    - {name: APP, valueFrom: {fieldRef: {fieldPath: "metadata.labels['app']"}}}
                    - {name: TEAM, valueFrom: {fieldRef: {fieldPath: "metadata.annotations['team']"}}}
                    - {name: HOST_IP, valueFrom: {fieldRef: {fieldPath: status.hostIP}}}
                    command: ["sh", "-c", "echo \\"$MESSAGE|$POD_NAME|$POD_NS|$NODE|$APP|$TEAM|$HOST_IP|$POD_UID\\"; echo '$(GREETING) $$(GREETING) $(MISSING)'"]
                """
                        .formatted(env.node)));
        Pod pod = env.awaitPhase("envy", PodStatus.SUCCEEDED);
        String log = env.logs("envy", "main", "");
        assertThat(log)
                .contains("hello world|envy|default|" + env.node + "|demo|blue|127.0.0.1|"
                        + pod.metadata().uid());
        // $(VAR) expands in command, $$ escapes, an undefined $(VAR) stays as written
        assertThat(log.lines().toList()).contains("hello $(GREETING) $(MISSING)");
    }

    @Test
    void initContainersRunFirstInOrder() throws Exception {
        env.create(parse(
                """
                apiVersion: v1
                kind: Pod
                metadata: {name: inits, namespace: default}
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  initContainers:
                  - {name: first, image: busybox, command: ["sh", "-c", "echo first"]}
                  - {name: second, image: busybox, command: ["sh", "-c", "echo second"]}
                  containers:
                  - {name: main, image: busybox, command: ["sh", "-c", "echo main"]}
                """
                        .formatted(env.node)));
        Pod pod = env.awaitPhase("inits", PodStatus.SUCCEEDED);
        assertThat(pod.status().initContainerStatuses())
                .hasSize(2)
                .allSatisfy(s -> assertThat(s.state().terminated().reason()).isEqualTo("Completed"));
        var first =
                pod.status().initContainerStatuses().get(0).state().terminated().finishedAt();
        var second =
                pod.status().initContainerStatuses().get(1).state().terminated().startedAt();
        var main = main(pod).state().terminated().startedAt();
        assertThat(second).isAfterOrEqualTo(first);
        assertThat(main).isAfterOrEqualTo(second);
        assertThat(env.logs("inits", "second", "")).contains("second");
    }

    @Test
    void failingInitContainerWithNeverFailsThePod() {
        env.create(parse(
                """
                apiVersion: v1
                kind: Pod
                metadata: {name: badinit, namespace: default}
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  initContainers:
                  - {name: setup, image: busybox, command: ["sh", "-c", "exit 7"]}
                  containers:
                  - {name: main, image: busybox, command: ["sh", "-c", "echo never"]}
                """
                        .formatted(env.node)));
        Pod pod = env.awaitPhase("badinit", PodStatus.FAILED);
        assertThat(pod.status()
                        .initContainerStatuses()
                        .get(0)
                        .state()
                        .terminated()
                        .exitCode())
                .isEqualTo(7);
        assertThat(main(pod).state().waiting()).isNotNull();
        assertThat(main(pod).containerID()).isNull();
    }

    @Test
    void activeDeadlineFailsThePodAndKillsItsContainers() {
        Pod pod = shPod("deadline", env.node, "Never", "sleep 60");
        env.create(pod.withSpec(pod.spec().withActiveDeadlineSeconds(2L).withTerminationGracePeriodSeconds(1L)));
        Pod failed = env.awaitPhase("deadline", PodStatus.FAILED);
        assertThat(failed.status().reason()).isEqualTo("DeadlineExceeded");
        assertThat(failed.status().message())
                .isEqualTo("Pod was active on the node longer than the specified deadline");
        assertThat(main(failed).state().terminated()).isNotNull();
        assertThat(main(failed).state().terminated().exitCode()).isIn(137, 143);
    }

    @Test
    void logsFollowUntilTheContainerEndsAndHonourTailLines() throws Exception {
        env.create(shPod("counter", env.node, "Never", "for i in 1 2 3 4 5 6; do echo line $i; sleep 0.2; done"));
        env.awaitPod(
                "counter",
                p -> p.status() != null
                        && !p.status().containerStatusesOrEmpty().isEmpty()
                        && main(p).containerID() != null);
        String followed = KubeletFixture.readAll(env.logStream("counter", "main", "follow=true"));
        assertThat(followed.lines().toList())
                .containsExactly("line 1", "line 2", "line 3", "line 4", "line 5", "line 6");
        assertThat(env.logs("counter", "main", "tailLines=2")).isEqualTo("line 5\nline 6\n");
        assertThat(env.logs("counter", "main", "limitBytes=6")).isEqualTo("line 1");
    }
}
