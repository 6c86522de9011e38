package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.Namespace;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.namespace.NamespaceController;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl 1.32's namespace deletion flow: {@code kubectl delete ns} waits while the namespace
 * is Terminating (held here by a pod's finalizer), {@code kubectl get ns} shows Terminating, a create in
 * it is refused with upstream's message, and the delete returns once the namespace controller is done.
 */
class RealKubectlNamespaceTest {
    private static TestApiServer server;
    private static RealKubectl kubectl;
    private static SharedInformerFactory informers;
    private static NamespaceController controller;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(RealKubectl.installed(), "kubectl is not installed at " + RealKubectl.BINARY);
        server = TestApiServer.start();
        kubectl = new RealKubectl(server.url());
        KubeClient client = KubeClient.forServer(server.url());
        informers = new SharedInformerFactory(client, Clock.system());
        controller = new NamespaceController(
                informers.informerFor(Namespace.class), client, Clock.system(), 2, Duration.ofMillis(200));
        informers.start();
        controller.start(Duration.ofSeconds(10));
    }

    @AfterAll
    static void stop() throws Exception {
        if (controller != null) {
            controller.stop(Duration.ofSeconds(5));
            informers.shutdown();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void deleteNamespaceWaitsWhileTerminatingAndReturnsWhenItIsGone() throws Exception {
        assertThat(kubectl.run("create", "namespace", "team").out()).isEqualTo("namespace/team created\n");
        RealKubectl.Result pod = kubectl.runWithStdin(
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: held
                  namespace: team
                  finalizers: ["example.com/hold"]
                spec:
                  containers:
                  - name: c
                    image: busybox
                """,
                "apply",
                "-f",
                "-");
        assertThat(pod.code()).as(pod.err()).isZero();

        CompletableFuture<RealKubectl.Result> delete =
                CompletableFuture.supplyAsync(() -> kubectl.run("delete", "ns", "team"));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> kubectl.run("get", "ns", "team").out().contains("Terminating"));
        assertThat(kubectl.run("get", "ns", "team").out()).containsPattern("team\\s+Terminating");

        RealKubectl.Result refused = kubectl.run("create", "job", "late", "--image=busybox", "-n", "team");
        assertThat(refused.code()).isNotZero();
        assertThat(refused.err())
                .contains("error: failed to create job: jobs.batch \"late\" is forbidden: "
                        + "unable to create new content in namespace team because it is being terminated");
        await().atMost(Duration.ofSeconds(30)).until(() -> kubectl.run(
                        "get",
                        "ns",
                        "team",
                        "-o",
                        "jsonpath={.status.conditions[?(@.type==\"NamespaceFinalizersRemaining\")].message}")
                .out()
                .equals("Some finalizers are remaining: example.com/hold in 1 resource instances"));
        assertThat(delete).isNotDone(); // kubectl waits, as with a real cluster

        assertThat(kubectl.run(
                                "patch",
                                "pod",
                                "held",
                                "-n",
                                "team",
                                "--type=merge",
                                "-p",
                                "{\"metadata\":{\"finalizers\":null}}")
                        .code())
                .isZero();
        RealKubectl.Result deleted = delete.get(60, TimeUnit.SECONDS);
        assertThat(deleted.code()).as(deleted.err()).isZero();
        assertThat(deleted.out()).isEqualTo("namespace \"team\" deleted\n");
        assertThat(kubectl.run("get", "ns", "team").err())
                .contains("Error from server (NotFound): namespaces \"team\" not found");
    }

    /**
     * As kube-apiserver's namespace strategy: a plain update (kubectl patch, kubectl replace) keeps the
     * stored {@code spec.finalizers} and {@code status}; only {@code PUT .../finalize} and
     * {@code .../status} change them, so no client can drop {@code kubernetes} and skip the cascade.
     */
    @Test
    void plainUpdateOfNamespaceKeepsSpecFinalizersAndStatus() {
        assertThat(kubectl.run("create", "namespace", "kept").code()).isZero();
        String finalizers = "jsonpath={.spec.finalizers}";

        RealKubectl.Result patched = kubectl.run(
                "patch",
                "ns",
                "kept",
                "--type=merge",
                "-p",
                "{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"finalizers\":[\"x.io/mine\"]},"
                        + "\"status\":{\"phase\":\"Terminating\"}}");
        assertThat(patched.code()).as(patched.err()).isZero();
        assertThat(kubectl.run("get", "ns", "kept", "-o", finalizers).out()).isEqualTo("[\"kubernetes\"]");
        assertThat(kubectl.run("get", "ns", "kept", "-o", "jsonpath={.status.phase}")
                        .out())
                .isEqualTo("Active");
        assertThat(kubectl.run("get", "ns", "kept", "-o", "jsonpath={.metadata.labels.a}")
                        .out())
                .isEqualTo("b"); // the rest of the patch applied

        RealKubectl.Result replaced = kubectl.runWithStdin(
                """
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: kept
                  labels: {a: c}
                spec:
                  finalizers: []
                """,
                "replace",
                "-f",
                "-");
        assertThat(replaced.code()).as(replaced.err()).isZero();
        assertThat(kubectl.run("get", "ns", "kept", "-o", finalizers).out()).isEqualTo("[\"kubernetes\"]");
        assertThat(kubectl.run("get", "ns", "kept", "-o", "jsonpath={.metadata.labels.a}")
                        .out())
                .isEqualTo("c");
        assertThat(kubectl.run("delete", "ns", "kept", "--wait=false").code()).isZero();
    }
}
