package io.kplane.kubectl;

import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.KubeClientException;
import io.kplane.client.config.KubeConfigCache;
import io.kplane.client.config.KubeconfigResolver;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where the CLI talks to, resolved by kubectl's rules ({@link KubeconfigResolver}) with the all-in-one
 * launcher's defaults last: {@code --server}/{@code --token} over {@code --kubeconfig}, else
 * {@code KUBECONFIG}, else {@code ~/.kube/config}, else {@code ./.kplane/kubeconfig}; else
 * {@code http://127.0.0.1:6443}. A kubeconfig's parsed YAML is kept in {@code ~/.kube/cache/kubectl-lite}
 * ({@link KubeConfigCache}: believed only while it holds the file's exact content). The namespace comes from
 * {@code -n}, else the kubeconfig context, else {@code default}.
 */
public final class Connection {
    public static final String DEFAULT_SERVER = KubeconfigResolver.DEFAULT_SERVER;
    public static final Path LAUNCHER_KUBECONFIG = Path.of(".kplane", "kubeconfig");

    private final ClientConfig config;
    private final String namespace;
    private Api api;

    private Connection(ClientConfig config, String namespace) {
        this.config = config;
        this.namespace = namespace;
    }

    public static Connection resolve(
            String server, String token, String kubeconfig, String namespaceFlag, String kubeconfigEnv, Path home) {
        ClientConfig config;
        try {
            config = new KubeconfigResolver(kubeconfigEnv, home, List.of(LAUNCHER_KUBECONFIG))
                    .withCache(KubeConfigCache.underHome(home))
                    .resolve(server, token, kubeconfig);
        } catch (KubeClientException e) {
            throw new CliException("error: " + e.getMessage());
        }
        String ns = namespaceFlag != null && !namespaceFlag.isEmpty()
                ? namespaceFlag
                : config.namespace() != null && !config.namespace().isEmpty() ? config.namespace() : "default";
        return new Connection(config, ns);
    }

    public String namespace() {
        return namespace;
    }

    public String server() {
        return config.server();
    }

    public synchronized Api api() {
        if (api == null) {
            ClientConfig c = config;
            api = new Api(
                    PlainHttpTransport.handles(c)
                            ? new PlainHttpTransport(c, new FullClient(c))
                            : new ClientTransport(KubeClient.create(c).raw()));
        }
        return api;
    }

    /**
     * The full HTTP client, built only when a plain-HTTP request needs it (PATCH, a DELETE body). A named
     * class rather than a lambda: linking a lambda's call site is a measurable part of a short run.
     */
    private static final class FullClient implements Supplier<Transport> {
        private final ClientConfig config;

        FullClient(ClientConfig config) {
            this.config = config;
        }

        @Override
        public Transport get() {
            return new ClientTransport(KubeClient.create(config).raw());
        }
    }
}
