package io.kplane.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.api.json.Json;
import io.kplane.client.KubeClientException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hand-written kubeconfig mapping reads what Jackson's record binding read, with the same leniency. */
class KubeConfigReaderTest {
    @Test
    void whatTheWriterWritesReadsBackEqual() {
        KubeConfig written = KubeConfigWriter.build("https://h:1", "tok", "PEM", false, "team-a");
        assertThat(KubeConfig.parse(Json.writeYaml(written))).isEqualTo(written);
        KubeConfig insecure = KubeConfigWriter.build("https://h:1", null, null, true, null);
        assertThat(KubeConfig.parse(Json.writeYaml(insecure))).isEqualTo(insecure);
    }

    @Test
    void everyFieldUnknownFieldsAndScalarCoercion() {
        KubeConfig c = KubeConfig.parse(
                """
                apiVersion: v1
                kind: Config
                clusters:
                - name: a
                  cluster:
                    server: https://a:6443
                    certificate-authority: ca.pem
                    certificate-authority-data: Q0E=
                    insecure-skip-tls-verify: "true"
                    extensions: [{name: x}]
                users:
                - name: u
                  user: {token: 12345, tokenFile: /t}
                - name: empty
                contexts:
                - name: ctx
                  context: {cluster: a, user: u, namespace: ns}
                current-context: ctx
                preferences: {colors: true, depth: 2, list: [a]}
                """);
        assertThat(c.apiVersion()).isEqualTo("v1");
        assertThat(c.kind()).isEqualTo("Config");
        assertThat(c.clusters())
                .containsExactly(new KubeConfig.NamedCluster(
                        "a", new KubeConfig.Cluster("https://a:6443", "ca.pem", "Q0E=", Boolean.TRUE)));
        assertThat(c.users())
                .containsExactly(
                        new KubeConfig.NamedUser("u", new KubeConfig.User("12345", "/t")),
                        new KubeConfig.NamedUser("empty", null));
        assertThat(c.contexts())
                .containsExactly(new KubeConfig.NamedContext("ctx", new KubeConfig.Context("a", "u", "ns")));
        assertThat(c.currentContext()).isEqualTo("ctx");
        assertThat(c.preferences()).isEqualTo(Map.of("colors", true, "depth", 2, "list", List.of("a")));
        assertThat(c.toClientConfig().insecureSkipTlsVerify()).isTrue();
    }

    @Test
    void anEmptyDocumentIsNoKubeconfigAndMissingListsAreNull() {
        assertThat(KubeConfig.parse("")).isNull();
        assertThat(KubeConfig.parse("~")).isNull();
        KubeConfig bare = KubeConfig.parse("current-context: x");
        assertThat(bare.clusters()).isNull();
        assertThat(bare.users()).isNull();
        assertThat(bare.preferences()).isNull();
    }

    @Test
    void aWrongShapeIsAnErrorNamingTheField() {
        assertThatThrownBy(() -> KubeConfig.parse("clusters: {a: b}"))
                .isInstanceOf(KubeClientException.class)
                .hasMessage("invalid kubeconfig: clusters: expected a list, got a map");
        assertThatThrownBy(() -> KubeConfig.parse("clusters: [{name: a, cluster: {server: [x]}}]"))
                .hasMessage("invalid kubeconfig: server: expected a string, got a list");
        assertThatThrownBy(() -> KubeConfig.parse("clusters: [{name: a, cluster: {insecure-skip-tls-verify: maybe}}]"))
                .hasMessage("invalid kubeconfig: insecure-skip-tls-verify: expected true or false, got 'maybe'");
        assertThatThrownBy(() -> KubeConfig.parse("just text"))
                .hasMessage("invalid kubeconfig: kubeconfig: expected a map, got 'just text'");
    }
}
