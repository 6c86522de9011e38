package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl 1.32's {@code exec} against the real stack (API server, scheduler, kubelet-sim with
 * the process runtime): kubectl negotiates {@code v5.channel.k8s.io} over a WebSocket, the API server
 * proxies the upgraded connection to the kubelet, which runs the command with the container's
 * environment and working directory.
 */
class ExecKubectlTest {
    private static MiniCluster cluster;
    private static RealKubectl kubectl;
    private static Path workDir;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(RealKubectl.installed(), "the real kubectl is not installed at /usr/bin/kubectl");
        cluster = new MiniCluster();
        kubectl = new RealKubectl(cluster.api.url());
        workDir = Files.createTempDirectory("exec-workdir");
        Files.writeString(workDir.resolve("data.txt"), "in the working directory\n");
        RealKubectl.Result r = kubectl.runWithStdin(
                """
                apiVersion: v1
                kind: Pod
                metadata: {name: shell}
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: main
                    image: busybox
                    command: [sleep, "3600"]
                    workingDir: %s
                    env: [{name: GREETING, value: hello-from-env}]
                """
                        .formatted(workDir),
                "create",
                "-f",
                "-");
        assertThat(r.code()).as(r.err()).isZero();
        cluster.awaitPhase("shell", "Running");
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void execRunsInTheContainersEnvironmentAndWorkingDirectory() {
        RealKubectl.Result r =
                kubectl.run("exec", "shell", "--", "sh", "-c", "echo $GREETING $HOSTNAME; pwd; cat data.txt");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("hello-from-env shell\n" + workDir + "\nin the working directory\n");
    }

    @Test
    void stdoutAndStderrArriveSeparately() {
        RealKubectl.Result r = kubectl.run("exec", "shell", "--", "sh", "-c", "echo out; echo err >&2");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("out\n");
        assertThat(r.err()).isEqualTo("err\n");
    }

    @Test
    void theExitCodeComesBack() {
        RealKubectl.Result r = kubectl.run("exec", "shell", "--", "sh", "-c", "echo before; exit 3");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.out()).isEqualTo("before\n");
        assertThat(r.err()).contains("command terminated with exit code 3");
    }

    @Test
    void stdinReachesTheCommandAndItsEndEndsIt() {
        RealKubectl.Result r =
                kubectl.runWithStdin("echo from stdin\necho $GREETING\n", "exec", "-i", "shell", "--", "sh");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("from stdin\nhello-from-env\n");
        RealKubectl.Result wc = kubectl.runWithStdin("a\nb\nc\n", "exec", "-i", "shell", "--", "wc", "-l");
        assertThat(wc.out().trim()).isEqualTo("3");
    }

    @Test
    void largeOutputArrivesWhole() {
        RealKubectl.Result r = kubectl.run("exec", "shell", "--", "sh", "-c", "seq 1 200000");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines().count()).isEqualTo(200000);
        assertThat(r.out()).endsWith("\n199999\n200000\n");
    }

    @Test
    void cpCopiesFilesAndDirectoriesBothWays() throws Exception {
        Path local = Files.createTempDirectory("cp-local");
        Files.createDirectories(local.resolve("tree/sub"));
        Files.writeString(local.resolve("tree/top.txt"), "top\n");
        Files.writeString(local.resolve("tree/sub/deep.txt"), "deep\n");
        Path inPod = Files.createTempDirectory("cp-in-pod");

        RealKubectl.Result up = kubectl.run("cp", local.resolve("tree").toString(), "shell:" + inPod.resolve("copied"));
        assertThat(up.code()).as(up.err()).isZero();
        RealKubectl.Result listed = kubectl.run(
                "exec",
                "shell",
                "--",
                "cat",
                inPod.resolve("copied/sub/deep.txt").toString());
        assertThat(listed.out()).isEqualTo("deep\n");

        kubectl.run("exec", "shell", "--", "sh", "-c", "echo made in the pod > " + inPod.resolve("made.txt"));
        Path back = local.resolve("back.txt");
        RealKubectl.Result down = kubectl.run("cp", "shell:" + inPod.resolve("made.txt"), back.toString());
        assertThat(down.code()).as(down.err()).isZero();
        assertThat(Files.readString(back)).isEqualTo("made in the pod\n");
    }

    @Test
    void errorsAreKubernetesOnes() {
        RealKubectl.Result wrongContainer = kubectl.run("exec", "shell", "-c", "nope", "--", "true");
        assertThat(wrongContainer.code()).isEqualTo(1);
        assertThat(wrongContainer.err()).contains("container nope is not valid for pod shell");

        RealKubectl.Result missingPod = kubectl.run("exec", "ghost", "--", "true");
        assertThat(missingPod.code()).isEqualTo(1);
        assertThat(missingPod.err()).contains("pods \"ghost\" not found");

        RealKubectl.Result noSuchCommand = kubectl.run("exec", "shell", "--", "no-such-command-here");
        assertThat(noSuchCommand.code()).isEqualTo(1);
        assertThat(noSuchCommand.err())
                .contains("Internal error occurred: error executing command in container")
                .contains("\"no-such-command-here\": executable file not found in $PATH");
    }

    /**
     * A {@code v4.channel.k8s.io} client (fabric8 7.x's {@code upload}) ends stdin by closing the
     * connection and takes the server's close as the end of the command: when that close arrives the
     * command must have read all the input (here: the file is whole) and its status must have come first.
     */
    @Test
    void aV4ClientsCloseIsAnsweredAfterTheCommandHasReadItsInput() throws Exception {
        Path target = Files.createTempDirectory("v4-upload").resolve("up.bin");
        String query = Stream.of("sh", "-c", "cat > " + target)
                        .map(c -> "command=" + URLEncoder.encode(c, StandardCharsets.UTF_8))
                        .collect(Collectors.joining("&"))
                + "&stdin=true&stdout=true&stderr=true";
        URI uri = URI.create(
                cluster.api.url().replaceFirst("^http", "ws") + "/api/v1/namespaces/default/pods/shell/exec?" + query);
        CompletableFuture<Long> sizeAtClose = new CompletableFuture<>();
        List<String> statuses = new CopyOnWriteArrayList<>();
        WebSocket.Listener listener = new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
                if (data.remaining() > 0 && data.get(0) == 3) {
                    data.get();
                    statuses.add(StandardCharsets.UTF_8.decode(data).toString());
                }
                ws.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
                try {
                    sizeAtClose.complete(Files.exists(target) ? Files.size(target) : -1);
                } catch (Exception e) {
                    sizeAtClose.completeExceptionally(e);
                }
                return null;
            }

            @Override
            public void onError(WebSocket ws, Throwable error) {
                sizeAtClose.completeExceptionally(error);
            }
        };
        WebSocket ws = HttpClient.newHttpClient()
                .newWebSocketBuilder()
                .subprotocols("v4.channel.k8s.io")
                .buildAsync(uri, listener)
                .get(30, TimeUnit.SECONDS);
        byte[] chunk = new byte[8192];
        chunk[0] = 0; // stdin
        Arrays.fill(chunk, 1, chunk.length, (byte) 'x');
        int messages = 40;
        for (int i = 0; i < messages; i++) {
            ws.sendBinary(ByteBuffer.wrap(chunk), true).get(30, TimeUnit.SECONDS);
        }
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);

        assertThat(sizeAtClose.get(30, TimeUnit.SECONDS)).isEqualTo((long) messages * (chunk.length - 1));
        assertThat(statuses).singleElement().asString().contains("\"status\":\"Success\"");
    }
}
