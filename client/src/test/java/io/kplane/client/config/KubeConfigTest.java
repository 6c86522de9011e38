package io.kplane.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeConfigTest {
    @TempDir
    Path dir;

    @Test
    void writtenKubeconfigReadsBackAsTheKplaneContext() throws Exception {
        Path file = dir.resolve(".kplane/kubeconfig");
        KubeConfigWriter.write(file, "http://127.0.0.1:6443", "s3cret");
        String yaml = Files.readString(file);
        assertThat(yaml)
                .contains("current-context: kplane")
                .contains("server: http://127.0.0.1:6443")
                .contains("token: s3cret")
                .doesNotContain("source");

        ClientConfig config = KubeConfig.load(file).toClientConfig();
        assertThat(config.server()).isEqualTo("http://127.0.0.1:6443");
        assertThat(config.token()).isEqualTo("s3cret");
        assertThat(config.insecureSkipTlsVerify()).isFalse();
        assertThat(config.caCertificatePem()).isNull();
    }

    @Test
    void readsKubectlStyleFilesWithCaFileRelativeToTheKubeconfigAndNamespace() throws Exception {
        Files.writeString(dir.resolve("ca.crt"), "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        Path file = dir.resolve("config");
        Files.writeString(
                file,
                """
                apiVersion: v1
                kind: Config
                clusters:
                - name: other
                  cluster:
                    server: https://other:6443
                - name: kplane
                  cluster:
                    server: https://127.0.0.1:6443
                    certificate-authority: ca.crt
                users:
                - name: kplane
                  user:
                    token: abc
                contexts:
                - name: kplane
                  context:
                    cluster: kplane
                    user: kplane
                    namespace: team-a
                - name: insecure
                  context:
                    cluster: other
                current-context: kplane
                extra-field-kubectl-writes: ignored
                """);
        KubeConfig kubeConfig = KubeConfig.load(file);
        ClientConfig config = kubeConfig.toClientConfig();
        assertThat(config.server()).isEqualTo("https://127.0.0.1:6443");
        assertThat(config.caCertificatePem()).startsWith("-----BEGIN CERTIFICATE-----");
        assertThat(config.namespace()).isEqualTo("team-a");
        assertThat(config.token()).isEqualTo("abc");
        assertThat(kubeConfig.toClientConfig("insecure").token()).isNull();
    }

    @Test
    void embeddedCaDataAndInsecureFlag() {
        KubeConfig written = KubeConfigWriter.build("https://h:1", null, "PEM-TEXT", false, null);
        assertThat(written.toClientConfig().caCertificatePem()).isEqualTo("PEM-TEXT");
        KubeConfig insecure = KubeConfigWriter.build("https://h:1", null, null, true, null);
        assertThat(insecure.toClientConfig().insecureSkipTlsVerify()).isTrue();
    }

    @Test
    void missingFileOrContextIsAClearError() {
        assertThatThrownBy(() -> KubeConfig.load(dir.resolve("nope")))
                .isInstanceOf(KubeClientException.class)
                .hasMessageContaining("no kubeconfig at");
        KubeConfig config = KubeConfigWriter.build("http://h:1", null, null, false, null);
        assertThatThrownBy(() -> config.toClientConfig("missing")).hasMessageContaining("has no context missing");
    }
}
