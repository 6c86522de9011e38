package io.kplane.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

class PlainHttpSslContextTest {

    @Test
    void aPlainHttpServerGetsAContextThatRefusesTls() {
        SSLContext context = TlsContexts.forConfig(ClientConfig.forServer("http://127.0.0.1:6443"));
        assertThatThrownBy(context::createSSLEngine)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("http://");
        assertThat(TlsContexts.forConfig(ClientConfig.forServer("https://127.0.0.1:6443")))
                .isNotSameAs(context);
    }

    /**
     * A client process talking to an http:// server answers its request without loading the JSSE (the
     * default SSLContext loads the provider and parses the JDK's CA store, which cost every controller
     * and kubelet memory and start-up CPU for nothing). Checked in a JVM of its own, whose class loading is
     * logged, because this test JVM may have loaded TLS classes for other tests.
     */
    @Test
    void aClientOfAPlainHttpServerLoadsNoTlsClasses() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(List.of(
                        java.toString(),
                        "-Xshare:off",
                        "-Xlog:class+load=info:stdout",
                        "-cp",
                        System.getProperty("java.class.path"),
                        PlainHttpClientProbe.class.getName()))
                .redirectErrorStream(true)
                .start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains("probe: 200 pong").doesNotContain("sun.security.ssl.");
    }

    /** Serves one GET on loopback and sends it with a {@link KubeClient}; prints the answer. */
    static final class PlainHttpClientProbe {
        public static void main(String[] args) throws IOException {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/ping", exchange -> {
                byte[] body = "pong".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            try {
                KubeClient client = KubeClient.forServer(
                        "http://127.0.0.1:" + server.getAddress().getPort());
                RawResponse response = client.raw().send("GET", "/ping", null, null, null, "text/plain");
                System.out.println("probe: " + response.statusCode() + " " + response.bodyText());
            } finally {
                server.stop(0);
            }
        }
    }
}
