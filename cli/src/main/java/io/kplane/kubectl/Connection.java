package io.kplane.kubectl;

import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.config.KubeConfig;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the CLI talks to, resolved like kubectl with the all-in-one launcher's defaults last:
 * {@code --server}/{@code --token}; {@code --kubeconfig}; {@code KUBECONFIG}; {@code ~/.kube/config};
 * {@code ./.kplane/kubeconfig}; {@code http://127.0.0.1:6443}. The namespace comes from
 * {@code -n}, else the kubeconfig context, else {@code default}.
 */
public final class Connection {
    public static final String DEFAULT_SERVER = "http://127.0.0.1:6443";
    public static final Path LAUNCHER_KUBECONFIG = Path.of(".kplane", "kubeconfig");

    private final ClientConfig config;
    private final String namespace;
    private Api api;

    private Connection(ClientConfig config, String namespace) {
        this.config = config;
        this.namespace = namespace;
    }

    public static Connection resolve(String server, String token, String kubeconfig, String namespaceFlag,
                                     String kubeconfigEnv, Path home) {
        ClientConfig config = null;
        Path file = null;
        if (kubeconfig != null && !kubeconfig.isEmpty()) {
            file = Path.of(kubeconfig);
            if (!Files.isReadable(file)) {
                throw new CliException("error: stat " + kubeconfig + ": no such file or directory");
            }
        } else if (server == null) {
            if (kubeconfigEnv != null && !kubeconfigEnv.isEmpty()) {
                for (String candidate : kubeconfigEnv.split(java.io.File.pathSeparator)) {
                    if (!candidate.isEmpty() && Files.isReadable(Path.of(candidate))) {
                        file = Path.of(candidate);
                        break;
                    }
                }
            }
            if (file == null && home != null && Files.isReadable(home.resolve(".kube").resolve("config"))) {
                file = home.resolve(".kube").resolve("config");
            }
            if (file == null && Files.isReadable(LAUNCHER_KUBECONFIG)) {
                file = LAUNCHER_KUBECONFIG;
            }
        }
        if (file != null) {
            try {
                config = KubeConfig.load(file).toClientConfig();
            } catch (RuntimeException e) {
                throw new CliException("error: invalid kubeconfig " + file + ": " + e.getMessage());
            }
        }
        if (config == null) {
            config = ClientConfig.forServer(server == null ? DEFAULT_SERVER : server);
        } else if (server != null) {
            config = ClientConfig.forServer(server).withToken(config.token())
                    .withNamespace(config.namespace());
        }
        if (token != null) {
            config = config.withToken(token);
        }
        String ns = namespaceFlag != null && !namespaceFlag.isEmpty() ? namespaceFlag
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
            api = new Api(PlainHttpTransport.handles(c)
                    ? new PlainHttpTransport(c, () -> new ClientTransport(KubeClient.create(c).raw()))
                    : new ClientTransport(KubeClient.create(c).raw()));
        }
        return api;
    }
}
