package io.kplane.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.apiserver.auth.TokenAuthenticator;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.config.KubeConfig;
import io.kplane.client.config.KubeConfigWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** TLS (custom CA, insecure-skip-tls-verify) and bearer tokens against a real API server. */
class SecureConnectionTest {
    static Path dir;
    static TestApiServer api;
    static String server;
    static String caPem;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("kplane-tls");
        Process openssl;
        try {
            openssl = new ProcessBuilder(
                            "openssl",
                            "req",
                            "-x509",
                            "-newkey",
                            "rsa:2048",
                            "-nodes",
                            "-keyout",
                            dir.resolve("key.pem").toString(),
                            "-out",
                            dir.resolve("cert.pem").toString(),
                            "-days",
                            "1",
                            "-subj",
                            "/CN=127.0.0.1",
                            "-addext",
                            "subjectAltName=IP:127.0.0.1,DNS:localhost")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (java.io.IOException e) {
            Assumptions.abort("openssl is not installed: " + e.getMessage());
            return;
        }
        Assumptions.assumeTrue(
                openssl.waitFor(60, TimeUnit.SECONDS) && openssl.exitValue() == 0,
                "openssl could not make a certificate");
        caPem = Files.readString(dir.resolve("cert.pem"));
        api = TestApiServer.start(o -> o.tls(dir.resolve("cert.pem"), dir.resolve("key.pem"))
                .authenticator(TokenAuthenticator.parse("good-token,alice,1\n")));
        server = "https://127.0.0.1:" + api.port();
    }

    @AfterAll
    static void stop() {
        if (api != null) {
            api.close();
        }
    }

    @Test
    void trustsTheServerThroughTheCaAndSendsTheToken() {
        KubeClient client = KubeClient.create(
                ClientConfig.forServer(server).withCaCertificatePem(caPem).withToken("good-token"));
        assertThat(client.namespaces().list()).isNotNull();
    }

    @Test
    void kubeconfigWithEmbeddedCaAndToken() {
        Path file = dir.resolve("kubeconfig");
        KubeConfigWriter.write(KubeConfigWriter.build(server, "good-token", caPem, false, null), file);
        KubeClient client = KubeClient.fromKubeConfig(file);
        assertThat(client.namespaces().list()).isNotNull();
        assertThat(KubeConfig.load(file).toClientConfig().caCertificatePem()).isEqualTo(caPem);
    }

    @Test
    void insecureSkipsVerification() {
        KubeClient client = KubeClient.create(
                ClientConfig.forServer(server).withInsecureSkipTlsVerify(true).withToken("good-token"));
        assertThat(client.namespaces().list()).isNotNull();
    }

    @Test
    void unknownCaIsAConnectionErrorAndBadTokenIsUnauthorized() {
        KubeClient untrusting = KubeClient.create(ClientConfig.forServer(server).withToken("good-token"));
        assertThatThrownBy(() -> untrusting.namespaces().list())
                .isInstanceOf(ApiConnectionException.class)
                .hasMessageContaining("cannot reach the apiserver at URL: " + server);

        KubeClient wrongToken = KubeClient.create(
                ClientConfig.forServer(server).withCaCertificatePem(caPem).withToken("bad-token"));
        assertThatThrownBy(() -> wrongToken.namespaces().list())
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo(401));
    }
}
