package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.client.config.KubeConfigWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@code kplane up} for the launcher stack ITs of a test run (StackEndToEndIT, LensUiBrowserIT,
 * CronJobTimelineBrowserIT, StackDownIT), instead of one stack per class: starting a stack is most of a
 * small class's time. Registered per class with
 * {@code @RegisterExtension static final SharedStack STACK = new SharedStack("namespace")}.
 *
 * <ul>
 *   <li>The first class that needs it starts it with the union of the classes' needs ({@link #NODES}
 *       nodes, {@link #COMPONENT_ARGS}); it lives in JUnit's root store, so it is stopped (best effort:
 *       {@code kplane down}, then whatever is left is killed) when the run ends, or earlier by
 *       StackDownIT, which proves {@code kplane down} on it. A class that finds no live stack starts
 *       one: no class depends on another having run, or on the order.
 *   <li>Before each class the stack must be whole again (every component healthy, every node Ready),
 *       whatever the previous class did to it (StackEndToEndIT kills components).
 *   <li>Each class gets its own namespace and a kubeconfig whose context defaults to it, so kubectl and
 *       kubectl-lite need no {@code -n}; the namespace is deleted after the class, and that clean-up
 *       never fails a test.
 *   <li>A class that moves the cluster clock back (CronJobTimelineBrowserIT: frozen a week ahead, then
 *       real time again) says so with {@link #clockMovedBack()}: from then on the stack's cluster-clock
 *       timers armed while the clock was ahead (kubelet lease renewals and heartbeats, the node monitor,
 *       delaying queues) wait for cluster time to catch up, so the stack is no longer handed to a later
 *       class; that class starts a new one. Only a class that merely stops the stack
 *       ({@link #anyClock(String)}, StackDownIT) takes it as it is. The classes' {@code @Order} puts the
 *       clock class last but for StackDownIT, so this costs a second stack only in an unusual order.
 * </ul>
 *
 * Cluster-wide state a class changes (a paused controller) it restores itself, in a
 * {@code finally} or {@code @AfterAll}.
 */
final class SharedStack implements BeforeAllCallback, AfterAllCallback {
    /** StackEndToEndIT's kubectl get nodes and kubelet kill need two nodes. */
    static final int NODES = 2;

    /**
     * Back-offs and batch periods shortened for the examples (StackEndToEndIT, LensUiBrowserIT), node
     * heartbeats and the job controller's leader election shortened for the kill drill (StackEndToEndIT).
     */
    static final List<String> COMPONENT_ARGS = List.of(
            "kubelet-sim=--crashloop-base=1s",
            "kubelet-sim=--lease-interval=2s",
            "job-controller=--pod-failure-backoff=1s",
            "job-controller=--pod-event-batch-period=100ms",
            "job-controller=--lease-duration=4s",
            "job-controller=--renew-deadline=3s",
            "job-controller=--retry-period=1s");

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(SharedStack.class);
    private static final Duration WHOLE_AGAIN = Duration.ofMinutes(3);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String namespace;
    /** This class only stops the stack: one whose clock was moved back will do. */
    private final boolean anyClock;

    private ExtensionContext.Store root;
    private Running running;
    private LaunchedStack stack;
    private Path kubeconfig;

    SharedStack(String namespace) {
        this(namespace, false);
    }

    private SharedStack(String namespace, boolean anyClock) {
        this.namespace = namespace;
        this.anyClock = anyClock;
    }

    /** For a class that only stops the stack (StackDownIT): takes it even after a clock move back. */
    static SharedStack anyClock(String namespace) {
        return new SharedStack(namespace, true);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        root = context.getRoot().getStore(STORE);
        Running found = root.get(Running.class, Running.class);
        if (found != null
                && (!found.stack().launcher().isAlive()
                        || (found.clockMovedBack().get() && !anyClock))) {
            root.remove(Running.class);
            found.close();
        }
        running = root.getOrComputeIfAbsent(Running.class, k -> Running.start(), Running.class);
        stack = running.stack();
        awaitWhole();
        HttpResponse<String> created = send(
                "POST",
                "/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + namespace + "\"}}");
        assertThat(created.statusCode())
                .as("namespace %s: %s", namespace, created.body())
                .isEqualTo(201);
        kubeconfig = stack.stateDir().resolve("kubeconfig-" + namespace);
        KubeConfigWriter.write(KubeConfigWriter.build(stack.server(), null, null, false, namespace), kubeconfig);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (stack != null && stack.launcher().isAlive()) {
                send("DELETE", "/api/v1/namespaces/" + namespace, null);
            }
        } catch (Exception | AssertionError e) {
            // clean-up only: the next class gets its own namespace and the run's end stops the stack
            System.err.println("SharedStack: namespace " + namespace + " not deleted: " + e);
        }
    }

    /** The class's namespace (already created). */
    String namespace() {
        return namespace;
    }

    /** The API server's URL, {@code http://127.0.0.1:PORT}. */
    String server() {
        return stack.server();
    }

    /** The launcher's state directory ({@code kplane status|logs|down --state-dir}). */
    Path stateDir() {
        return stack.stateDir();
    }

    /** A kubeconfig for this stack whose context's namespace is the class's. */
    Path kubeconfig() {
        return kubeconfig;
    }

    /**
     * The calling class is about to move the cluster clock in a way that leaves timers waiting once it is
     * real again (a jump back): no later class gets this stack but one created with
     * {@link #anyClock(String)}.
     */
    void clockMovedBack() {
        running.clockMovedBack().set(true);
    }

    /**
     * Takes the stack out of the run: the caller stops it (and the next class, if any, starts a new one).
     */
    LaunchedStack release() {
        root.remove(Running.class);
        return stack;
    }

    /** Every component healthy (the launcher restarts killed ones) and every node Ready. */
    private void awaitWhole() {
        await("the shared stack whole again (components healthy, " + NODES + " nodes Ready)")
                .atMost(WHOLE_AGAIN)
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .untilAsserted(() -> {
                    assertThat(stack.launcher().isAlive())
                            .as("launcher alive; output:\n%s", stack.launcherOutput())
                            .isTrue();
                    StateFile state = StateFile.read(stack.stateDir());
                    assertThat(state).isNotNull();
                    for (StateFile.Entry e : state.components()) {
                        if (e.healthPath() != null) {
                            assertThat(HealthProbe.healthy(new ComponentSpec(
                                            e.name(),
                                            e.name(),
                                            List.of(),
                                            Map.of(),
                                            e.healthPort(),
                                            e.healthPath(),
                                            List.of())))
                                    .as("%s healthy", e.name())
                                    .isTrue();
                        }
                    }
                    JsonNode nodes =
                            Json.tree(send("GET", "/api/v1/nodes", null).body());
                    long ready = 0;
                    for (JsonNode node : nodes.path("items")) {
                        for (JsonNode c : node.at("/status/conditions")) {
                            if (c.path("type").asText().equals("Ready")
                                    && c.path("status").asText().equals("True")) {
                                ready++;
                            }
                        }
                    }
                    assertThat(ready).as("Ready nodes: %s", nodes).isEqualTo(NODES);
                });
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(stack.server() + path))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The run's stack in JUnit's root store, which closes it when the run ends; {@code clockMovedBack}: see
     * {@link SharedStack#clockMovedBack()}.
     */
    private record Running(LaunchedStack stack, AtomicBoolean clockMovedBack) implements AutoCloseable {
        static Running start() {
            try {
                return new Running(LaunchedStack.up("kplane-shared", NODES, COMPONENT_ARGS), new AtomicBoolean());
            } catch (Exception e) {
                throw new IllegalStateException("kplane up failed: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            try {
                LaunchedStack.down(stack.launcher(), stack.stateDir());
            } catch (Exception e) {
                System.err.println("SharedStack: kplane down failed: " + e);
            }
        }
    }
}
