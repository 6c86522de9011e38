package io.kplane.kubelet;

import static io.kplane.kubelet.PodManifests.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.ContainerStateWaiting;
import io.kplane.api.core.Event;
import io.kplane.api.core.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Pod volumes and env from API objects, as every runtime must show them, against a real API server and
 * real containers. Subclasses pick the runtime and set {@link #env}.
 */
abstract class PodVolumesContract {
    static KubeletFixture env;

    @AfterAll
    static void stop() {
        if (env != null) {
            env.close();
            env = null;
        }
    }

    static Optional<ContainerStateWaiting> waiting(Pod p) {
        if (p.status() == null || p.status().containerStatusesOrEmpty().isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(p.status().containerStatuses().get(0).state().waiting());
    }

    static List<Event> events(String pod, String reason) {
        return env.client.events().inNamespace("default").list().stream()
                .filter(e -> pod.equals(e.involvedObject().name()) && reason.equals(e.reason())).toList();
    }

    @Test
    void emptyDirHostPathDownwardApiAndSubPathAreMountedAtTheirPaths() throws Exception {
        Path host = Files.createTempDirectory("kplane-hostpath");
        Path data = host.resolve("data");
        env.create(parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: vols, namespace: default, labels: {app: backup, tier: web}}
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  volumes:
                  - {name: scratch, emptyDir: {}}
                  - {name: mem, emptyDir: {medium: Memory, sizeLimit: 8Mi}}
                  - {name: out, hostPath: {path: %s, type: DirectoryOrCreate}}
                  - name: info
                    downwardAPI:
                      items:
                      - {path: labels, fieldRef: {fieldPath: metadata.labels}}
                      - {path: name, fieldRef: {fieldPath: metadata.name}, mode: 0400}
                  initContainers:
                  - name: init
                    image: busybox
                    command: [sh, -c, "echo from-init > /kplane-scratch/handoff && echo mem > /kplane-mem/m"]
                    volumeMounts:
                    - {name: scratch, mountPath: /kplane-scratch}
                    - {name: mem, mountPath: /kplane-mem}
                  containers:
                  - name: main
                    image: busybox
                    command: [sh, -c]
                    args:
                    - |
                      cat /kplane-scratch/handoff /kplane-mem/m
                      cat /etc/kplane-podinfo/labels; echo; cat /etc/kplane-podinfo/name; echo
                      echo result > /kplane-out/result.txt
                      touch /kplane-ro/x 2>/dev/null && echo ro-writable || echo ro-refused
                    volumeMounts:
                    - {name: scratch, mountPath: /kplane-scratch}
                    - {name: mem, mountPath: /kplane-mem}
                    - {name: info, mountPath: /etc/kplane-podinfo}
                    - {name: out, mountPath: /kplane-out, subPath: run1}
                    - {name: scratch, mountPath: /kplane-ro, readOnly: true}
                """.formatted(env.node, data)));
        Pod pod = env.awaitPhase("vols", "Succeeded");
        assertThat(pod.status().containerStatuses().get(0).state().terminated().exitCode()).isZero();
        assertThat(env.logs("vols", "main", "")).isEqualTo("""
                from-init
                mem
                app="backup"
                tier="web"
                vols
                ro-refused
                """);
        // the hostPath directory was created (DirectoryOrCreate) and the subPath inside it
        assertThat(Files.readString(data.resolve("run1/result.txt"))).isEqualTo("result\n");
        // nothing was written into the host's /
        assertThat(Path.of("/kplane-scratch")).doesNotExist();
        assertThat(Path.of("/etc/kplane-podinfo")).doesNotExist();
    }

    @Test
    void hostPathTypeCheckFailureKeepsThePodCreatingWithFailedMount() {
        env.create(parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: badhost, namespace: default}
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  volumes:
                  - {name: f, hostPath: {path: /nonexistent/kplane-file, type: File}}
                  containers:
                  - {name: main, image: busybox, command: [sh, -c, "true"],
                     volumeMounts: [{name: f, mountPath: /f}]}
                """.formatted(env.node)));
        Pod pod = env.awaitPod("badhost", p -> waiting(p).map(w -> "ContainerCreating".equals(w.reason())
                && w.message() != null).orElse(false));
        assertThat(pod.phase()).isEqualTo("Pending");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(events("badhost", "FailedMount"))
                .extracting(Event::message)
                .contains("MountVolume.SetUp failed for volume \"f\" : hostPath type check failed: "
                        + "/nonexistent/kplane-file is not a file"));
    }

    @Test
    void missingConfigMapVolumeIsAFailedMount() {
        env.create(parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: nocm, namespace: default}
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  volumes:
                  - {name: scripts, configMap: {name: kplane-missing-script}}
                  - {name: opt, configMap: {name: kplane-missing-optional, optional: true}}
                  containers:
                  - {name: main, image: busybox, command: [sh, -c, "true"],
                     volumeMounts: [{name: scripts, mountPath: /scripts}, {name: opt, mountPath: /opt-cm}]}
                """.formatted(env.node)));
        env.awaitPod("nocm", p -> waiting(p).map(w -> "ContainerCreating".equals(w.reason())).orElse(false));
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(events("nocm", "FailedMount"))
                .extracting(Event::message)
                .contains("MountVolume.SetUp failed for volume \"scripts\" : configmap \"kplane-missing-script\" "
                        + "not found"));
    }

    @Test
    void missingSecretForEnvIsCreateContainerConfigError() {
        env.create(parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: nosecret, namespace: default}
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  containers:
                  - name: main
                    image: busybox
                    command: [sh, -c, "echo $PASSWORD"]
                    env:
                    - name: OPTIONAL
                      valueFrom: {configMapKeyRef: {name: kplane-nothing, key: k, optional: true}}
                    - name: PASSWORD
                      valueFrom: {secretKeyRef: {name: kplane-db-creds, key: password}}
                """.formatted(env.node)));
        Pod pod = env.awaitPod("nosecret", p -> waiting(p).map(w -> "CreateContainerConfigError".equals(w.reason()))
                .orElse(false));
        assertThat(waiting(pod).orElseThrow().message()).isEqualTo("secret \"kplane-db-creds\" not found");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(events("nosecret", "Failed"))
                .extracting(Event::message).anyMatch(m -> m.endsWith("secret \"kplane-db-creds\" not found")));
    }
}
