package io.kplane.client.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.kplane.api.json.TreeReader;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClientException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A kubeconfig file (the subset kplane uses): clusters with server, CA and insecure flag; users with a
 * bearer token; contexts; the current context. Read with {@link #load(Path)} (which file: {@link KubeconfigResolver}),
 * turned into a {@link ClientConfig} with {@link #toClientConfig()}, written with {@link KubeConfigWriter}.
 */
public record KubeConfig(
        String apiVersion,
        String kind,
        List<NamedCluster> clusters,
        List<NamedUser> users,
        List<NamedContext> contexts,
        @JsonProperty("current-context") String currentContext,
        Map<String, Object> preferences,
        /** The file this was read from: relative certificate paths resolve against its folder. Not serialised. */
        @com.fasterxml.jackson.annotation.JsonIgnore Path source) {

    /** The entries of the three lists, found by name with one loop ({@link #named}). */
    interface Named {
        String name();
    }

    public record NamedCluster(String name, Cluster cluster) implements Named {}

    public record Cluster(
            String server,
            @JsonProperty("certificate-authority") String certificateAuthority,
            @JsonProperty("certificate-authority-data") String certificateAuthorityData,
            @JsonProperty("insecure-skip-tls-verify") Boolean insecureSkipTlsVerify) {}

    public record NamedUser(String name, User user) implements Named {}

    public record User(String token, String tokenFile) {}

    public record NamedContext(String name, Context context) implements Named {}

    public record Context(String cluster, String user, String namespace) {}

    public static KubeConfig load(Path path) {
        return load(path, KubeConfigCache.NONE);
    }

    /** {@link #load(Path)}, its YAML parsed once per content of the file and kept in {@code cache}. */
    public static KubeConfig load(Path path, KubeConfigCache cache) {
        try {
            KubeConfig parsed = KubeConfigReader.read(cache.tree(path, Files.readAllBytes(path)));
            if (parsed == null) {
                throw new KubeClientException("kubeconfig " + path + " is empty");
            }
            return parsed.withSource(path);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new KubeClientException("no kubeconfig at " + path + " (set KUBECONFIG or pass --server)", e);
        } catch (IOException e) {
            throw new KubeClientException("cannot read kubeconfig " + path + ": " + e.getMessage(), e);
        }
    }

    public static KubeConfig parse(String yaml) {
        try {
            return KubeConfigReader.read(TreeReader.yaml(yaml));
        } catch (IOException e) {
            throw new KubeClientException("invalid kubeconfig: " + e.getMessage(), e);
        }
    }

    public KubeConfig withSource(Path path) {
        return new KubeConfig(apiVersion, kind, clusters, users, contexts, currentContext, preferences, path);
    }

    /** The client settings of the current context. */
    public ClientConfig toClientConfig() {
        if (currentContext == null || currentContext.isEmpty()) {
            throw new KubeClientException("kubeconfig" + where() + " has no current-context");
        }
        return toClientConfig(currentContext);
    }

    /** The client settings of context {@code contextName}. */
    public ClientConfig toClientConfig(String contextName) {
        return toClientConfig(contextName, null);
    }

    /**
     * The client settings of context {@code contextName} with its cluster's server replaced by
     * {@code serverOverride} when that is not null (kubectl's {@code --server}: token, CA and namespace stay).
     */
    public ClientConfig toClientConfig(String contextName, String serverOverride) {
        // a plain loop, no streams or method references: each first link of a lambda call site costs a
        // short-lived CLI measurable start-up time (docs/performance.md, "kubectl-lite")
        NamedContext namedContext = named(contexts, contextName);
        Context context = namedContext == null ? null : namedContext.context();
        if (context == null) {
            throw new KubeClientException("kubeconfig" + where() + " has no context " + contextName);
        }
        NamedCluster namedCluster = named(clusters, context.cluster());
        Cluster cluster = namedCluster == null ? null : namedCluster.cluster();
        if (cluster == null) {
            throw new KubeClientException("kubeconfig" + where() + " has no cluster " + context.cluster());
        }
        String server = serverOverride != null ? serverOverride : cluster.server();
        if (server == null) {
            throw new KubeClientException(
                    "cluster " + context.cluster() + " in kubeconfig" + where() + " has no server");
        }
        NamedUser namedUser = named(users, context.user());
        User user = namedUser == null ? null : namedUser.user();
        return new ClientConfig(
                server,
                token(user),
                caPem(cluster),
                Boolean.TRUE.equals(cluster.insecureSkipTlsVerify()),
                context.namespace(),
                null);
    }

    /** This file's relative certificate and token paths made absolute against its folder (before a merge). */
    KubeConfig withAbsolutePaths() {
        List<NamedCluster> absClusters = clusters == null
                ? null
                : clusters.stream()
                        .map(n -> n.cluster() == null || n.cluster().certificateAuthority() == null
                                ? n
                                : new NamedCluster(
                                        n.name(),
                                        new Cluster(
                                                n.cluster().server(),
                                                resolve(n.cluster().certificateAuthority())
                                                        .toString(),
                                                n.cluster().certificateAuthorityData(),
                                                n.cluster().insecureSkipTlsVerify())))
                        .toList();
        List<NamedUser> absUsers = users == null
                ? null
                : users.stream()
                        .map(n -> n.user() == null || n.user().tokenFile() == null
                                ? n
                                : new NamedUser(
                                        n.name(),
                                        new User(
                                                n.user().token(),
                                                resolve(n.user().tokenFile()).toString())))
                        .toList();
        return new KubeConfig(apiVersion, kind, absClusters, absUsers, contexts, currentContext, preferences, null);
    }

    private String token(User user) {
        if (user == null) {
            return null;
        }
        if (user.token() != null) {
            return user.token();
        }
        if (user.tokenFile() != null) {
            try {
                return Files.readString(resolve(user.tokenFile())).trim();
            } catch (IOException e) {
                throw new KubeClientException("cannot read tokenFile " + user.tokenFile() + ": " + e.getMessage(), e);
            }
        }
        return null;
    }

    private String caPem(Cluster cluster) {
        if (cluster.certificateAuthorityData() != null) {
            return new String(
                    Base64.getMimeDecoder().decode(cluster.certificateAuthorityData()), StandardCharsets.US_ASCII);
        }
        if (cluster.certificateAuthority() != null) {
            try {
                return Files.readString(resolve(cluster.certificateAuthority()), StandardCharsets.US_ASCII);
            } catch (IOException e) {
                throw new KubeClientException(
                        "cannot read certificate-authority " + cluster.certificateAuthority() + ": " + e.getMessage(),
                        e);
            }
        }
        return null;
    }

    private Path resolve(String file) {
        Path p = Path.of(file);
        if (p.isAbsolute() || source == null || source.toAbsolutePath().getParent() == null) {
            return p;
        }
        return source.toAbsolutePath().getParent().resolve(p);
    }

    private String where() {
        return source == null ? "" : " " + source;
    }

    /** The first entry of {@code list} called {@code wanted}; null if there is none (or no list, or no name). */
    private static <E extends Named> E named(List<E> list, String wanted) {
        if (list == null || wanted == null) {
            return null;
        }
        for (E e : list) {
            if (e != null && wanted.equals(e.name())) {
                return e;
            }
        }
        return null;
    }
}
