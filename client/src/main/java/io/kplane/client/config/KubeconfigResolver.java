package io.kplane.client.config;

import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClientException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Where a component or kubectl-lite connects to: kubectl's loading rules (client-go's
 * {@code clientcmd.ClientConfigLoadingRules} plus its flag overrides) in one place.
 *
 * <ol>
 *   <li>The kubeconfig: {@code --kubeconfig FILE} alone if given (it must exist); else every file of
 *       {@code KUBECONFIG} (a path list; missing entries are skipped) merged as kubectl merges them —
 *       the first file to define a cluster, user or context name wins, the first non-empty
 *       {@code current-context} wins, relative paths resolve against the file that holds them; else
 *       {@code ~/.kube/config} if it exists; else the caller's fallback files (kubectl-lite: the
 *       launcher's {@code ./.kplane/kubeconfig}).</li>
 *   <li>Explicit flags override it: {@code --server} replaces the context's server (its token, CA and
 *       namespace still apply, as in kubectl), {@code --token} replaces the token.</li>
 *   <li>No kubeconfig and no {@code --server}: {@link #DEFAULT_SERVER}, the launcher's address.</li>
 * </ol>
 * In-cluster configuration (service-account token files) is not supported: kplane's pods do not get one.
 * One deliberate difference from client-go: a token is sent over plain HTTP too (client-go only sends
 * credentials over TLS), because the launcher's own kubeconfig is plain HTTP with a token.
 */
public final class KubeconfigResolver {
    public static final String DEFAULT_SERVER = "http://127.0.0.1:6443";

    private final String kubeconfigEnv;
    private final Path home;
    private final List<Path> fallbacks;
    private final KubeConfigCache cache;

    /**
     * @param kubeconfigEnv the value of {@code KUBECONFIG} (may be null)
     * @param home          the user's home folder (may be null)
     * @param fallbacks     files tried, first existing wins, when neither {@code KUBECONFIG} nor
     *                      {@code ~/.kube/config} gives one
     */
    public KubeconfigResolver(String kubeconfigEnv, Path home, List<Path> fallbacks) {
        this(kubeconfigEnv, home, fallbacks, KubeConfigCache.NONE);
    }

    private KubeconfigResolver(String kubeconfigEnv, Path home, List<Path> fallbacks, KubeConfigCache cache) {
        this.kubeconfigEnv = kubeconfigEnv;
        this.home = home;
        this.fallbacks = List.copyOf(fallbacks);
        this.cache = cache;
    }

    /** These rules with every kubeconfig's YAML tree kept in {@code cache} ({@link KubeConfigCache}). */
    public KubeconfigResolver withCache(KubeConfigCache cache) {
        return new KubeconfigResolver(kubeconfigEnv, home, fallbacks, cache);
    }

    /** This process's {@code KUBECONFIG} and home folder, no fallback files. */
    public static KubeconfigResolver system() {
        return new KubeconfigResolver(System.getenv("KUBECONFIG"), Path.of(System.getProperty("user.home")), List.of());
    }

    /**
     * The client settings for these flags (each may be null).
     *
     * @throws KubeClientException when {@code --kubeconfig} names no file or a kubeconfig is unusable
     */
    public ClientConfig resolve(String server, String token, String kubeconfig) {
        KubeConfig merged = load(kubeconfig);
        ClientConfig config;
        if (merged != null
                && merged.currentContext() != null
                && !merged.currentContext().isEmpty()) {
            config = merged.toClientConfig(merged.currentContext(), emptyToNull(server));
        } else {
            config = ClientConfig.forServer(emptyToNull(server) == null ? DEFAULT_SERVER : server);
        }
        if (token != null && !token.isEmpty()) {
            config = config.withToken(token);
        }
        return config;
    }

    /** The kubeconfig the rules select (merged when {@code KUBECONFIG} lists several), or null if none. */
    public KubeConfig load(String kubeconfig) {
        if (kubeconfig != null && !kubeconfig.isEmpty()) {
            Path file = Path.of(kubeconfig);
            if (!Files.isRegularFile(file)) {
                throw new KubeClientException("stat " + kubeconfig + ": no such file or directory");
            }
            return read(file);
        }
        List<Path> files = new ArrayList<>();
        if (kubeconfigEnv != null && !kubeconfigEnv.isEmpty()) {
            for (String entry : kubeconfigEnv.split(File.pathSeparator, -1)) {
                if (!entry.isEmpty() && Files.isRegularFile(Path.of(entry))) {
                    files.add(Path.of(entry));
                }
            }
            // kubectl: when KUBECONFIG is set, ~/.kube/config is not consulted, even if none of its files exist
            if (files.isEmpty()) {
                return null;
            }
            List<KubeConfig> configs = new ArrayList<>(files.size());
            for (Path file : files) {
                configs.add(read(file));
            }
            return merge(configs);
        }
        if (home != null && Files.isRegularFile(home.resolve(".kube").resolve("config"))) {
            return read(home.resolve(".kube").resolve("config"));
        }
        for (Path fallback : fallbacks) {
            if (Files.isRegularFile(fallback)) {
                return read(fallback);
            }
        }
        return null;
    }

    private KubeConfig read(Path file) {
        try {
            return KubeConfig.load(file, cache);
        } catch (KubeClientException e) {
            throw new KubeClientException("invalid kubeconfig " + file + ": " + e.getMessage(), e);
        }
    }

    /** kubectl's merge: first definition of each name wins, first non-empty current-context wins. */
    static KubeConfig merge(List<KubeConfig> configs) {
        if (configs.size() == 1) {
            return configs.get(0);
        }
        Map<String, KubeConfig.NamedCluster> clusters = new LinkedHashMap<>();
        Map<String, KubeConfig.NamedUser> users = new LinkedHashMap<>();
        Map<String, KubeConfig.NamedContext> contexts = new LinkedHashMap<>();
        String current = null;
        for (KubeConfig config : configs) {
            KubeConfig c = config.withAbsolutePaths();
            putFirst(clusters, c.clusters(), KubeConfig.NamedCluster::name);
            putFirst(users, c.users(), KubeConfig.NamedUser::name);
            putFirst(contexts, c.contexts(), KubeConfig.NamedContext::name);
            if ((current == null || current.isEmpty()) && c.currentContext() != null) {
                current = c.currentContext();
            }
        }
        return new KubeConfig(
                "v1",
                "Config",
                List.copyOf(clusters.values()),
                List.copyOf(users.values()),
                List.copyOf(contexts.values()),
                current,
                null,
                null);
    }

    private static <E> void putFirst(Map<String, E> into, List<E> entries, Function<E, String> name) {
        if (entries != null) {
            for (E e : entries) {
                if (name.apply(e) != null) {
                    into.putIfAbsent(name.apply(e), e);
                }
            }
        }
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
