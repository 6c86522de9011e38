package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.coordination.Lease;
import io.kplane.api.core.Node;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The pod lifecycle with containers run as host processes, plus node registration and heartbeat. */
class ProcessRuntimePodLifecycleTest extends PodLifecycleContract {

    @BeforeAll
    static void start() throws Exception {
        env = new KubeletFixture("proc-node", "process", null);
    }

    @Test
    void registersTheNodeAndRenewsItsLease() {
        Node node = env.client.nodes().get("proc-node");
        assertThat(node.isReady()).isTrue();
        assertThat(node.status().daemonEndpoints().kubeletEndpoint().port()).isEqualTo(env.kubelet.port());
        assertThat(node.status().addresses())
                .extracting(a -> a.type() + "=" + a.address())
                .contains("InternalIP=127.0.0.1", "Hostname=proc-node");
        assertThat(node.status().capacity()).containsEntry("pods", "110").containsKeys("cpu", "memory");
        assertThat(node.status().nodeInfo().kubeletVersion()).startsWith("v1.");
        Lease first = env.client.leases().inNamespace("kube-node-lease").get("proc-node");
        assertThat(first.spec().holderIdentity()).isEqualTo("proc-node");
        Instant renewed = first.spec().renewTime();
        await().atMost(Duration.ofSeconds(10)).until(() -> env.client
                .leases()
                .inNamespace("kube-node-lease")
                .get("proc-node")
                .spec()
                .renewTime()
                .isAfter(renewed));
    }

    @Test
    void containerWithoutCommandWaitsWithAClearMessage() {
        env.create(
                PodManifests.parse(
                        """
                apiVersion: v1
                kind: Pod
                metadata: {name: nocommand, namespace: default}
                spec:
                  nodeName: proc-node
                  restartPolicy: Never
                  containers:
                  - {name: main, image: busybox}
                """));
        var pod = env.awaitPod(
                "nocommand",
                p -> p.status() != null
                        && !p.status().containerStatusesOrEmpty().isEmpty()
                        && p.status().containerStatuses().get(0).state().waiting() != null
                        && "CreateContainerConfigError"
                                .equals(p.status()
                                        .containerStatuses()
                                        .get(0)
                                        .state()
                                        .waiting()
                                        .reason()));
        assertThat(pod.phase()).isEqualTo("Pending");
        assertThat(pod.status().containerStatuses().get(0).state().waiting().message())
                .contains("set command");
    }

    @Test
    void missingExecutableIsAStartErrorWithExitCode128() {
        env.create(
                PodManifests.parse(
                        """
                apiVersion: v1
                kind: Pod
                metadata: {name: noexec, namespace: default}
                spec:
                  nodeName: proc-node
                  restartPolicy: Never
                  containers:
                  - {name: main, image: busybox, command: ["no-such-binary-kplane"]}
                """));
        var pod = env.awaitPhase("noexec", "Failed");
        var t = pod.status().containerStatuses().get(0).state().terminated();
        assertThat(t.exitCode()).isEqualTo(128);
        assertThat(t.reason()).isEqualTo("StartError");
        assertThat(t.message()).contains("executable file not found");
    }
}
