package io.kplane.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.PodResource;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * fabric8 kubernetes-client 7.9's {@code exec}, {@code upload}, {@code copy} and {@code read} with its
 * default settings: WebSocket {@code v4.channel.k8s.io} through its default HTTP client (Vert.x), the
 * API server proxying to the stack's kubelet, which runs the commands in the pod's container.
 */
class Fabric8ExecIT {
    static KubernetesClient client;
    static String ns;
    static Path dir;

    @BeforeAll
    static void connect() throws Exception {
        client = Fabric8Clients.connect();
        ns = Fabric8Clients.createNamespace(client, "f8exec-");
        dir = Files.createTempDirectory("f8-exec");
        client.pods()
                .inNamespace(ns)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("box")
                        .endMetadata()
                        .withNewSpec()
                        .withTerminationGracePeriodSeconds(1L)
                        .addNewContainer()
                        .withName("c")
                        .withImage("busybox")
                        .withCommand("sleep", "3600")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        pod().waitUntilReady(60, TimeUnit.SECONDS);
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.namespaces().withName(ns).delete();
            client.close();
        }
    }

    static PodResource pod() {
        return client.pods().inNamespace(ns).withName("box");
    }

    @Test
    void execReturnsOutputErrorAndExitCode() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (ExecWatch watch =
                pod().writingOutput(out).writingError(err).exec("sh", "-c", "echo out; echo err >&2; exit 3")) {
            assertThat(watch.exitCode().get(60, TimeUnit.SECONDS)).isEqualTo(3);
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("out\n");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("err\n");

        ByteArrayOutputStream ok = new ByteArrayOutputStream();
        try (ExecWatch watch = pod().writingOutput(ok).exec("echo", "fine")) {
            assertThat(watch.exitCode().get(60, TimeUnit.SECONDS)).isZero();
        }
        assertThat(ok.toString(StandardCharsets.UTF_8)).isEqualTo("fine\n");
    }

    @Test
    void execWithStdinFeedsTheCommand() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ExecWatch watch = pod().redirectingInput().writingOutput(out).exec("sh", "-c", "read x; echo got $x")) {
            watch.getInput().write("hello\n".getBytes(StandardCharsets.UTF_8));
            watch.getInput().flush();
            assertThat(watch.exitCode().get(60, TimeUnit.SECONDS)).isZero();
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("got hello\n");
    }

    @Test
    void uploadThenReadAndCopyAFile() throws Exception {
        Path local = dir.resolve("up.txt");
        String content = "line one\nline two\n".repeat(1000);
        Files.writeString(local, content);
        String remote = dir.resolve("in-pod-" + UUID.randomUUID() + ".txt").toString();

        assertThat(pod().file(remote).upload(local)).isTrue();

        ByteArrayOutputStream read = new ByteArrayOutputStream();
        try (InputStream in = pod().file(remote).read()) {
            // transferTo, not readAllBytes: readAllBytes asks for 0 bytes when its buffer is full, which
            // fabric8's ExecWatchInputStream answers with an assertion (failsafe runs with -ea)
            in.transferTo(read);
        }
        assertThat(read.toString(StandardCharsets.UTF_8)).isEqualTo(content);
        Path back = dir.resolve("back-" + UUID.randomUUID() + ".txt");
        assertThat(pod().file(remote).copy(back)).isTrue();
        assertThat(Files.readString(back)).isEqualTo(content);
    }

    @Test
    void uploadAndCopyADirectory() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("tree-" + UUID.randomUUID()));
        Files.createDirectories(tree.resolve("sub"));
        Files.writeString(tree.resolve("top.txt"), "top\n");
        Files.writeString(tree.resolve("sub/deep.txt"), "deep\n");
        String remote = dir.resolve("dir-in-pod-" + UUID.randomUUID()).toString();

        assertThat(pod().dir(remote).upload(tree)).isTrue();

        Path back = Files.createDirectories(dir.resolve("dir-back-" + UUID.randomUUID()));
        assertThat(pod().dir(remote).copy(back)).isTrue();
        // copy keeps the remote path under the target, as fabric8 documents
        Path copied = back.resolve(remote.substring(1));
        assertThat(Files.readString(copied.resolve("top.txt"))).isEqualTo("top\n");
        assertThat(Files.readString(copied.resolve("sub/deep.txt"))).isEqualTo("deep\n");
    }
}
