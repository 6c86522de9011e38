package io.kplane.kubectl;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kplane.client.config.KubeConfigWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The fixed workload the class-data-sharing archive is dumped from ({@code ./kubectl-lite} records its
 * class list with {@code -XX:DumpLoadedClassList} and dumps a static archive from it when the archive is
 * missing or older than the jar). It runs the
 * everyday commands against a canned in-process HTTP server, so the archive holds the classes of those
 * paths whatever command happens to run first, and needs no API server.
 */
public final class CdsTraining {
    private static final String POD =
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default","uid":"u",
            "resourceVersion":"1","creationTimestamp":"2026-01-01T00:00:00Z","labels":{"app":"p"}},
            "spec":{"containers":[{"name":"c","image":"busybox"}]},"status":{"phase":"Running"}}""";
    private static final String LIST =
            "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"1\"}," + "\"items\":["
                    + POD + "]}";
    private static final String TABLE =
            """
            {"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"1"},
            "columnDefinitions":[{"name":"Name","type":"string","format":"name","priority":0},
            {"name":"Status","type":"string","priority":0},{"name":"Age","type":"string","priority":0}],
            "rows":[{"cells":["p","Running","1s"],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",
            "metadata":{"name":"p","namespace":"default","creationTimestamp":"2026-01-01T00:00:00Z"}}}]}""";
    private static final String MANIFEST =
            """
            apiVersion: v1
            kind: Pod
            metadata: {name: p}
            spec:
              containers: [{name: c, image: busybox}]
            """;

    private CdsTraining() {}

    public static void main(String[] args) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", CdsTraining::answer);
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            run(url, "get", "pods");
            run(url, "get", "pods", "-o", "wide");
            // a get that QuickGet leaves to picocli (its attached option form), so that path is archived too
            run(url, "get", "pods", "--output=wide");
            run(url, "get", "pod", "p", "-o", "yaml");
            run(url, "get", "pods", "-o", "jsonpath={.items[*].metadata.name}");
            run(url, "version");
            run(url, "create", "-f", "-");
            run(url, "apply", "-f", "-");
            runWithKubeconfig(url, "get", "pods");
            runWithLauncherKubeconfig(url, "get", "pods");
        } finally {
            server.stop(0);
        }
    }

    private static void run(String url, String... args) {
        String[] full = new String[args.length + 2];
        full[0] = "--server";
        full[1] = url;
        System.arraycopy(args, 0, full, 2, args.length);
        runArgs(full);
    }

    /**
     * The way a user runs it: the server from a kubeconfig file, so reading and parsing kubeconfig YAML
     * (its own set of Jackson deserializers) is in the archive too.
     */
    private static void runWithKubeconfig(String url, String... args) throws IOException {
        Path kubeconfig = Files.createTempFile("kubectl-lite-training", ".kubeconfig");
        try {
            Files.writeString(
                    kubeconfig,
                    """
                    apiVersion: v1
                    kind: Config
                    clusters:
                    - name: training
                      cluster: {server: "%s"}
                    users:
                    - name: training
                      user: {token: training}
                    contexts:
                    - name: training
                      context: {cluster: training, user: training, namespace: default}
                    current-context: training
                    """
                            .formatted(url));
            runArgs(withKubeconfig(kubeconfig, args));
        } finally {
            Files.deleteIfExists(kubeconfig);
        }
    }

    /**
     * The kubeconfig {@code ./kplane up} writes (block style, indented lists): its YAML parser states
     * (e.g. SnakeYAML's {@code ParseBlockSequenceFirstEntry}) differ from the flow-style file's above.
     */
    private static void runWithLauncherKubeconfig(String url, String... args) throws IOException {
        Path kubeconfig = Files.createTempFile("kubectl-lite-training", ".kubeconfig");
        Path home = Files.createTempDirectory("kubectl-lite-training-home");
        try {
            KubeConfigWriter.write(kubeconfig, url, null);
            // twice with a home folder: the first run parses the YAML and fills the kubeconfig cache
            // (KubeConfigCache), the second reads the cached tree, the path of every later run
            runArgs(withKubeconfig(kubeconfig, args), home);
            runArgs(withKubeconfig(kubeconfig, args), home);
        } finally {
            Files.deleteIfExists(kubeconfig);
            deleteTree(home);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** {@code --kubeconfig FILE} followed by {@code args}. */
    private static String[] withKubeconfig(Path kubeconfig, String... args) {
        String[] full = new String[args.length + 2];
        full[0] = "--kubeconfig";
        full[1] = kubeconfig.toString();
        System.arraycopy(args, 0, full, 2, args.length);
        return full;
    }

    private static void runArgs(String[] args) {
        runArgs(args, Path.of("/nonexistent"));
    }

    private static void runArgs(String[] args, Path home) {
        StringWriter err = new StringWriter();
        int code = KubectlLite.run(
                args,
                new PrintWriter(new StringWriter()),
                new PrintWriter(err),
                new KubectlLite.Environment(
                        null, home, new ByteArrayInputStream(MANIFEST.getBytes(StandardCharsets.UTF_8))));
        if (code != 0) {
            // the archive is still useful; say which path it may lack
            System.err.println("training: " + String.join(" ", args) + " exited " + code + ": "
                    + err.toString().strip());
        }
    }

    private static void answer(HttpExchange exchange) throws IOException {
        String accept = exchange.getRequestHeaders().getFirst("Accept");
        String path = exchange.getRequestURI().getPath();
        String body = path.equals("/version")
                ? "{\"major\":\"1\",\"minor\":\"32\",\"gitVersion\":\"v1.32.0\"}"
                : accept != null && accept.contains("as=Table") ? TABLE : path.endsWith("/pods") ? LIST : POD;
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
