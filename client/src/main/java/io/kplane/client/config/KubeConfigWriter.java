package io.kplane.client.config;

import io.kplane.api.json.Json;
import io.kplane.client.KubeClientException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;

/**
 * Writes the kubeconfig the launcher leaves in {@code ./.kplane/kubeconfig}: cluster {@code kplane},
 * user {@code kplane}, context {@code kplane} (current), readable by kubectl-lite and the real kubectl.
 */
public final class KubeConfigWriter {
    public static final String NAME = "kplane";

    private KubeConfigWriter() {}

    /**
     * @param token         bearer token, or null
     * @param caPem         CA certificate (PEM) embedded as certificate-authority-data, or null
     * @param insecure      write insecure-skip-tls-verify (ignored when a CA is given)
     * @param namespace     default namespace of the context, or null
     */
    public static KubeConfig build(String server, String token, String caPem, boolean insecure, String namespace) {
        String caData =
                caPem == null ? null : Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII));
        return new KubeConfig(
                "v1",
                "Config",
                List.of(new KubeConfig.NamedCluster(
                        NAME,
                        new KubeConfig.Cluster(
                                server, null, caData, (caPem == null && insecure) ? Boolean.TRUE : null))),
                List.of(new KubeConfig.NamedUser(NAME, new KubeConfig.User(token, null))),
                List.of(new KubeConfig.NamedContext(NAME, new KubeConfig.Context(NAME, NAME, namespace))),
                NAME,
                java.util.Map.of(),
                null);
    }

    /** Writes {@code config} atomically (temp file + rename), owner-only when the file system allows. */
    public static void write(KubeConfig config, Path path) {
        try {
            Path dir = path.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".kubeconfig", ".tmp");
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: keep the default permissions
            }
            Files.writeString(tmp, Json.writeYaml(config), StandardCharsets.UTF_8);
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new KubeClientException("cannot write kubeconfig " + path + ": " + e.getMessage(), e);
        }
    }

    public static void write(Path path, String server, String token) {
        write(build(server, token, null, false, null), path);
    }
}
