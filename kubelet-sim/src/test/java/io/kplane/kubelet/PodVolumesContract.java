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
                .filter(e -> pod.equals(e.involvedObject().name()) && reason.equals(e.reason()))
                .toList();
    }

    @Test
    void emptyDirHostPathDownwardApiAndSubPathAreMountedAtTheirPaths() throws Exception {
        Path host = Files.createTempDirectory("kplane-hostpath");
        Path data = host.resolve("data");
        env.create(parse(
                """
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
                """
                        .formatted(env.node, data)));
        Pod pod = env.awaitPhase("vols", "Succeeded");
        assertThat(pod.status().containerStatuses().get(0).state().terminated().exitCode())
                .isZero();
        assertThat(env.logs("vols", "main", ""))
                .isEqualTo(
                        """
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
        env.create(parse(
                """
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
                """
                        .formatted(env.node)));
        Pod pod = env.awaitPod("badhost", p -> waiting(p)
                .map(w -> "ContainerCreating".equals(w.reason()) && w.message() != null)
                .orElse(false));
        assertThat(pod.phase()).isEqualTo("Pending");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(events("badhost", "FailedMount"))
                .extracting(Event::message)
                .contains("MountVolume.SetUp failed for volume \"f\" : hostPath type check failed: "
                        + "/nonexistent/kplane-file is not a file"));
    }

    @Test
    void missingConfigMapVolumeIsAFailedMount() {
        env.create(parse(
                """
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
                """
                        .formatted(env.node)));
        env.awaitPod(
                "nocm",
                p -> waiting(p).map(w -> "ContainerCreating".equals(w.reason())).orElse(false));
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(events("nocm", "FailedMount"))
                .extracting(Event::message)
                .contains("MountVolume.SetUp failed for volume \"scripts\" : configmap \"kplane-missing-script\" "
                        + "not found"));
    }

    @Test
    void missingSecretForEnvIsCreateContainerConfigError() {
        env.create(parse(
                """
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
                """
                        .formatted(env.node)));
        Pod pod = env.awaitPod("nosecret", p -> waiting(p)
                .map(w -> "CreateContainerConfigError".equals(w.reason()))
                .orElse(false));
        assertThat(waiting(pod).orElseThrow().message()).isEqualTo("secret \"kplane-db-creds\" not found");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(events("nosecret", "Failed"))
                .extracting(Event::message)
                .anyMatch(m -> m.endsWith("secret \"kplane-db-creds\" not found")));
    }

    static void post(String resource, String yaml) {
        byte[] body = io.kplane.api.json.Json.writeBytes(PodManifests.yamlTree(yaml));
        env.client
                .raw()
                .request("POST", "/api/v1/namespaces/default/" + resource, null, body, "application/json", null);
    }

    static void mergePatch(String resource, String name, String json) {
        env.client
                .raw()
                .request(
                        "PATCH",
                        "/api/v1/namespaces/default/" + resource + "/" + name,
                        null,
                        json.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        "application/merge-patch+json",
                        null);
    }

    @Test
    void missingSecretKeyWaitsUntilTheKeyAppearsThenRuns() throws Exception {
        post(
                "secrets",
                """
                apiVersion: v1
                kind: Secret
                metadata: {name: kplane-late-creds}
                stringData: {user: admin}
                """);
        env.create(parse(
                """
                apiVersion: v1
                kind: Pod
                metadata: {name: latekey, namespace: default}
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  containers:
                  - name: main
                    image: busybox
                    command: [sh, -c, "echo user=$APP_user password=$PASSWORD mode=$APP_MODE"]
                    envFrom:
                    - {prefix: APP_, secretRef: {name: kplane-late-creds}}
                    - {prefix: APP_, configMapRef: {name: kplane-late-settings}}
                    env:
                    - name: PASSWORD
                      valueFrom: {secretKeyRef: {name: kplane-late-creds, key: password}}
                """
                        .formatted(env.node)));
        env.awaitPod("latekey", p -> waiting(p)
                .map(w -> "CreateContainerConfigError".equals(w.reason())
                        && "configmap \"kplane-late-settings\" not found".equals(w.message()))
                .orElse(false));
        post(
                "configmaps",
                """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: kplane-late-settings}
                data: {MODE: fast}
                """);
        env.awaitPod("latekey", p -> waiting(p)
                .map(w -> "CreateContainerConfigError".equals(w.reason())
                        && "couldn't find key password in Secret default/kplane-late-creds".equals(w.message()))
                .orElse(false));
        mergePatch("secrets", "kplane-late-creds", "{\"stringData\":{\"password\":\"hunter2\"}}");
        env.awaitPhase("latekey", "Succeeded");
        assertThat(env.logs("latekey", "main", "")).isEqualTo("user=admin password=hunter2 mode=fast\n");
    }

    @Test
    void configMapUpdateReachesTheRunningPodAtomically() throws Exception {
        post(
                "configmaps",
                """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: kplane-live-config}
                data: {greeting: v1, other: x}
                """);
        post(
                "secrets",
                """
                apiVersion: v1
                kind: Secret
                metadata: {name: kplane-live-secret}
                stringData: {token: abc}
                """);
        env.create(parse(
                """
                apiVersion: v1
                kind: Pod
                metadata: {name: liveconfig, namespace: default}
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  volumes:
                  - name: cfg
                    configMap:
                      name: kplane-live-config
                      items: [{key: greeting, path: conf/greeting.txt, mode: 0600}]
                  - {name: sec, secret: {secretName: kplane-live-secret, defaultMode: 0400}}
                  containers:
                  - name: main
                    image: busybox
                    command: [sh, -c]
                    args:
                    - |
                      echo "first $(cat /etc/kplane-cfg/conf/greeting.txt) mode $(stat -L -c %%a /etc/kplane-cfg/conf/greeting.txt)"
                      echo "token $(cat /etc/kplane-sec/token) mode $(stat -L -c %%a /etc/kplane-sec/token)"
                      ls /etc/kplane-cfg
                      touch /etc/kplane-cfg/x 2>/dev/null && echo writable || echo read-only
                      i=0
                      while [ "$(cat /etc/kplane-cfg/conf/greeting.txt)" != v2 ]; do
                        i=$((i+1)); [ $i -gt 300 ] && exit 3; sleep 0.1
                      done
                      echo "then $(cat /etc/kplane-cfg/conf/greeting.txt)"
                    volumeMounts:
                    - {name: cfg, mountPath: /etc/kplane-cfg}
                    - {name: sec, mountPath: /etc/kplane-sec}
                """
                        .formatted(env.node)));
        env.awaitPod(
                "liveconfig",
                p -> p.status() != null
                        && !p.status().containerStatusesOrEmpty().isEmpty()
                        && p.status().containerStatuses().get(0).state().running() != null);
        await().atMost(Duration.ofSeconds(15))
                .until(() -> env.logs("liveconfig", "main", "").contains("read-only"));
        mergePatch("configmaps", "kplane-live-config", "{\"data\":{\"greeting\":\"v2\"}}");
        Pod done = env.awaitPhase("liveconfig", "Succeeded");
        assertThat(done.status().containerStatuses().get(0).state().terminated().exitCode())
                .isZero();
        assertThat(env.logs("liveconfig", "main", ""))
                .isEqualTo(
                        """
                first v1 mode 600
                token abc mode 400
                conf
                read-only
                then v2
                """);
    }
}
