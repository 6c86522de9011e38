package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.ContainerStateTerminated;
import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.events.ApiEventRecorder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.scheduler.Scheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A {@code tty: true} container's main process on a terminal (process runtime), driven by the real
 * kubectl 1.32 on a pseudo-terminal of its own against a real API server, scheduler and kubelet:
 * {@code kubectl run -it ... -- sh} (kubectl creates the pod with {@code stdin}, {@code stdinOnce} and
 * {@code tty} and attaches with a tty), {@code kubectl attach -it} to a running one, the resize channel,
 * and {@code kubectl logs} of what the terminal showed.
 */
class TtyKubectlTest {
    private static final String NODE = "tty-node";
    /** Polls in the container's shell until the terminal has the size kubectl sent, then prints it. */
    private static final String SHOW_TERMINAL = "for i in $(seq 100); do s=$(stty size); [ \"$s\" = \"%s\" ] && break; "
            + "sleep 0.1; done; echo \"size=[$s] tty=[$(tty)] answer=$((6*7))\"\n";

    // static state: the docker subclass runs the same tests after this class's @AfterAll has cleaned up
    static TestApiServer api;
    static KubeClient client;
    static SharedInformerFactory informers;
    static Scheduler scheduler;
    static Kubelet kubelet;
    static TerminalKubectl kubectl;
    /** The image kubectl run names: any for host processes, one the engine has and runs for docker. */
    static String image = "busybox";

    /**
     * The process-runtime stack, for this class only: JUnit runs a superclass's static {@code @BeforeAll}
     * for a subclass too (a static method is not overridden), so without the check DockerTtyKubectlTest
     * started a process stack besides its own — and ran on it, reporting a pass, where no engine was.
     */
    @BeforeAll
    static void start(TestInfo info) throws Exception {
        if (info.getTestClass().orElseThrow() == TtyKubectlTest.class) {
            startStack("process", null);
        }
    }

    /** The stack with a kubelet of {@code runtime}; the docker variant calls this itself. */
    static void startStack(String runtime, String dockerHost) throws Exception {
        Assumptions.assumeTrue(TerminalKubectl.installed(), "the real kubectl is not installed at /usr/bin/kubectl");
        api = TestApiServer.start();
        client = KubeClient.create(ClientConfig.forServer(api.url()));
        informers = new SharedInformerFactory(client, Clock.system());
        scheduler = new Scheduler(
                informers.informerFor(Pod.class),
                informers.informerFor(Node.class),
                client,
                new ApiEventRecorder(client, "test", "test", Clock.system()),
                Clock.system(),
                Duration.ofSeconds(1));
        informers.start();
        assertThat(informers.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
        scheduler.startWorkers();
        Path root = Files.createTempDirectory("kubelet-tty");
        kubelet = new Kubelet(
                        KubeletConfig.defaults(ClientConfig.forServer(api.url()), NODE, root)
                                .withLeaseInterval(Duration.ofSeconds(1))
                                .withRuntime(runtime, dockerHost),
                        Clock.system())
                .start();
        kubectl = new TerminalKubectl(api.url());
    }

    @AfterAll
    static void stop() throws Exception {
        if (kubelet != null) {
            kubelet.shutdownNode(Duration.ZERO); // docker: the node's containers are removed
        }
        if (scheduler != null) {
            scheduler.stop(Duration.ofSeconds(5));
            informers.shutdown();
        }
        if (api != null) {
            api.close();
        }
        kubelet = null;
        scheduler = null;
        api = null;
    }

    /** Skipped, not failed, where the stack could not start (no engine for the docker variant). */
    @BeforeEach
    void requireStack() {
        Assumptions.assumeTrue(kubelet != null, "no kubelet for this runtime here (see the class's start-up message)");
    }

    @Test
    void runInteractiveShellOnATerminalUntilExit() throws Exception {
        try (TerminalKubectl.Session run = kubectl.onTerminal(
                100,
                30,
                "run",
                "-it",
                "demo",
                "--image=" + image,
                "--image-pull-policy=IfNotPresent",
                "--restart=Never",
                "--",
                "sh")) {
            // kubectl prints this once its terminal is raw and it is attached
            run.await("kubectl attached", s -> s.contains("If you don't see a command prompt, try pressing enter."));
            run.type(SHOW_TERMINAL.formatted("30 100"));
            String shown = run.await("the shell's answer", s -> s.contains("answer=42"));
            assertThat(shown)
                    .as("the container's terminal echoes what is typed (kubectl's own terminal is raw)")
                    .contains("for i in $(seq 100)")
                    .contains("size=[30 100]")
                    .containsPattern("tty=\\[/dev/pts/\\d+\\]")
                    .as("a terminal ends lines with CR LF")
                    .contains("answer=42\r\n");
            run.type("exit\n");
            assertThat(run.awaitExit()).as(run.screen()).isZero();
        }
        Pod pod = awaitTerminated("demo");
        assertThat(pod.phase()).isEqualTo("Succeeded");
        assertThat(terminated(pod).exitCode()).isZero();

        TerminalKubectl.Result logs = kubectl.run("logs", "demo");
        assertThat(logs.code()).as(logs.out()).isZero();
        assertThat(logs.out())
                .as("the log is what the terminal showed: echo and output, lines ending CR LF")
                .contains("for i in $(seq 100)")
                .containsPattern("size=\\[30 100\\] tty=\\[/dev/pts/\\d+\\]")
                .contains("answer=42\r\n");
    }

    @Test
    void attachWithTerminalToARunningTtyContainerFollowsItsSize() throws Exception {
        TerminalKubectl.Result created = kubectl.run(
                "run",
                "waiter",
                "--image=" + image,
                "--image-pull-policy=IfNotPresent",
                "--restart=Never",
                "--stdin",
                "--tty",
                "--attach=false",
                "--",
                // GNU timeout (the process runtime runs the host's) moves itself and sh to a process group
                // of its own: sh must still read the terminal (fabric8's PodIT attaches to `timeout ... sh -i`)
                "timeout",
                "600",
                "sh");
        assertThat(created.code()).as(created.out()).isZero();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> find("waiter").map(Pod::phase).orElse(""), "Running"::equals);

        try (TerminalKubectl.Session attach = kubectl.onTerminal(123, 45, "attach", "-it", "waiter")) {
            attach.await("kubectl attached", s -> s.contains("If you don't see a command prompt, try pressing enter."));
            attach.type(SHOW_TERMINAL.formatted("45 123"));
            String shown = attach.await("the shell's answer", s -> s.contains("answer=42"));
            assertThat(shown).containsPattern("tty=\\[/dev/pts/\\d+\\]");
            // kubectl's attach sends its size plus one, then its size; the terminal ends at its size
            assertThat(shown).contains("size=[45 123]");
            attach.type("exit 4\n");
            attach.awaitExit();
        }
        Pod pod = awaitTerminated("waiter");
        assertThat(pod.phase()).isEqualTo("Failed");
        assertThat(terminated(pod).exitCode()).isEqualTo(4);
    }

    private static Optional<Pod> find(String name) {
        return client.pods().inNamespace("default").find(name);
    }

    private static Pod awaitTerminated(String name) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> find(name)
                        .map(p -> "Succeeded".equals(p.phase()) || "Failed".equals(p.phase()))
                        .orElse(false));
        return find(name).orElseThrow();
    }

    private static ContainerStateTerminated terminated(Pod pod) {
        return pod.status().containerStatuses().get(0).state().terminated();
    }
}
