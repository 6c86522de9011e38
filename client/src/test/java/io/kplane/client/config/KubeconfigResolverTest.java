package io.kplane.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClientException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kubectl's precedence and merge rules, once for every component and kubectl-lite. */
class KubeconfigResolverTest {
    @TempDir
    Path dir;

    private Path kubeconfig(String name, String context, String server, String token, String namespace)
            throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(
                file,
                """
                apiVersion: v1
                kind: Config
                clusters:
                - name: %1$s
                  cluster:
                    server: %2$s
                users:
                - name: %1$s
                  user:
                    token: %3$s
                contexts:
                - name: %1$s
                  context:
                    cluster: %1$s
                    user: %1$s
                    namespace: %4$s
                current-context: %1$s
                """
                        .formatted(context, server, token, namespace));
        return file;
    }

    private KubeconfigResolver resolver(String kubeconfigEnv, Path... fallbacks) {
        return new KubeconfigResolver(kubeconfigEnv, dir.resolve("home"), List.of(fallbacks));
    }

    @Test
    void nothingConfiguredMeansTheLauncherAddressAndAServerFlagAloneIsUsedAsIs() {
        assertThat(resolver(null).resolve(null, null, null))
                .isEqualTo(ClientConfig.forServer(KubeconfigResolver.DEFAULT_SERVER));
        ClientConfig flags = resolver(null).resolve("http://10.0.0.1:8080", "t0k", null);
        assertThat(flags.server()).isEqualTo("http://10.0.0.1:8080");
        assertThat(flags.token()).isEqualTo("t0k");
        assertThat(flags.namespace()).isNull();
    }

    @Test
    void explicitFlagsOverrideTheKubeconfigWhichStillGivesTheRest() throws Exception {
        Path file = kubeconfig("a/config", "a", "http://a:1", "tok-a", "team-a");
        // kubectl: --server replaces the server only; token and namespace still come from the context
        ClientConfig server = resolver(null).resolve("http://override:2", null, file.toString());
        assertThat(server.server()).isEqualTo("http://override:2");
        assertThat(server.token()).isEqualTo("tok-a");
        assertThat(server.namespace()).isEqualTo("team-a");
        ClientConfig token = resolver(null).resolve(null, "flag-token", file.toString());
        assertThat(token.server()).isEqualTo("http://a:1");
        assertThat(token.token()).isEqualTo("flag-token");
        // also for a kubeconfig found by discovery (it used to be skipped as soon as --server was given)
        Path home = kubeconfig("home/.kube/config", "h", "http://h:1", "tok-h", "team-h");
        assertThat(home).exists();
        ClientConfig discovered = resolver(null).resolve("http://override:2", null, null);
        assertThat(discovered.server()).isEqualTo("http://override:2");
        assertThat(discovered.token()).isEqualTo("tok-h");
        assertThat(discovered.namespace()).isEqualTo("team-h");
    }

    @Test
    void explicitKubeconfigWinsOverTheEnvironmentAndHomeAndMustExist() throws Exception {
        Path explicit = kubeconfig("explicit", "x", "http://x:1", "tok-x", "nx");
        Path env = kubeconfig("env", "e", "http://e:1", "tok-e", "ne");
        kubeconfig("home/.kube/config", "h", "http://h:1", "tok-h", "nh");
        assertThat(resolver(env.toString())
                        .resolve(null, null, explicit.toString())
                        .server())
                .isEqualTo("http://x:1");
        String missing = dir.resolve("nope").toString();
        assertThatThrownBy(() -> resolver(env.toString()).resolve(null, null, missing))
                .isInstanceOf(KubeClientException.class)
                .hasMessage("stat " + missing + ": no such file or directory");
    }

    @Test
    void kubeconfigEnvironmentListIsMergedFirstDefinitionWins() throws Exception {
        Files.createDirectories(dir.resolve("one"));
        Files.writeString(dir.resolve("one/token"), "file-token\n");
        Path one = dir.resolve("one/config");
        // no current-context here: the second file's is used; "shared" is defined here first
        Files.writeString(
                one,
                """
                clusters:
                - name: shared
                  cluster:
                    server: http://from-one:1
                users:
                - name: shared
                  user:
                    tokenFile: token
                contexts:
                - name: shared
                  context:
                    cluster: shared
                    user: shared
                    namespace: from-one
                """);
        Path two = dir.resolve("two/config");
        Files.createDirectories(two.getParent());
        Files.writeString(
                two,
                """
                clusters:
                - name: shared
                  cluster:
                    server: http://from-two:2
                contexts:
                - name: shared
                  context:
                    cluster: shared
                    namespace: from-two
                current-context: shared
                """);
        String env = dir.resolve("missing").toString() + File.pathSeparator + one + File.pathSeparator + two;
        ClientConfig merged = resolver(env).resolve(null, null, null);
        assertThat(merged.server()).isEqualTo("http://from-one:1");
        assertThat(merged.namespace()).isEqualTo("from-one");
        // the relative tokenFile resolves against the file that names it, not the working directory
        assertThat(merged.token()).isEqualTo("file-token");

        // the first non-empty current-context wins
        Path three = kubeconfig("three", "third", "http://third:3", "tok-3", "n3");
        assertThat(resolver(three + File.pathSeparator + two)
                        .resolve(null, null, null)
                        .server())
                .isEqualTo("http://third:3");
    }

    @Test
    void environmentListReplacesHomeEvenWhenNoneOfItsFilesExist() throws Exception {
        kubeconfig("home/.kube/config", "h", "http://h:1", "tok-h", "nh");
        assertThat(resolver(dir.resolve("gone").toString())
                        .resolve(null, null, null)
                        .server())
                .isEqualTo(KubeconfigResolver.DEFAULT_SERVER);
        assertThat(resolver(null).resolve(null, null, null).server()).isEqualTo("http://h:1");
    }

    @Test
    void fallbackFilesComeAfterHome() throws Exception {
        Path fallback = kubeconfig("launcher/kubeconfig", "kplane", "http://launcher:6443", "tok-l", "default");
        assertThat(resolver(null, dir.resolve("absent"), fallback)
                        .resolve(null, null, null)
                        .server())
                .isEqualTo("http://launcher:6443");
        kubeconfig("home/.kube/config", "h", "http://h:1", "tok-h", "nh");
        assertThat(resolver(null, fallback).resolve(null, null, null).server()).isEqualTo("http://h:1");
    }

    @Test
    void anUnreadableKubeconfigNamesTheFile() throws Exception {
        Path bad = dir.resolve("bad");
        Files.writeString(bad, "clusters: [ {");
        assertThatThrownBy(() -> resolver(null).resolve(null, null, bad.toString()))
                .isInstanceOf(KubeClientException.class)
                .hasMessageStartingWith("invalid kubeconfig " + bad + ": ");
    }
}
