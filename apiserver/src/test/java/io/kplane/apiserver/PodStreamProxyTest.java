package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.apiserver.testing.TestApiServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API server's splice of {@code pods/exec|attach|portforward} to the kubelet, against a kubelet
 * stand-in on a raw socket, so that the test decides how the kubelet's bytes arrive: its answer and the
 * first bytes of the stream in ONE write (one TCP segment on loopback, what a busy kubelet produces when
 * the v4 port-forward announces its ports right after the handshake). Nothing the kubelet sends may be
 * lost, and a refusal must come back as a finished Status, never a hang.
 */
class PodStreamProxyTest {
    private static final int READ_TIMEOUT_MS = 30_000;
    static TestApiServer api;
    static Http http;
    static ServerSocket kubelet;
    static final ExecutorService kubeletThreads = Executors.newCachedThreadPool();
    /** What the kubelet stand-in answers to the request head it read (everything up to the blank line). */
    static volatile Function<String, byte[]> kubeletAnswer = head -> new byte[0];

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start(o -> o.kubeletToken("kubelet-secret"));
        http = new Http(api.url());
        kubelet = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        kubeletThreads.execute(PodStreamProxyTest::serveKubelet);
        String node =
                """
                {"metadata":{"name":"node-s"},"status":{"addresses":[{"type":"InternalIP","address":"127.0.0.1"}],
                  "daemonEndpoints":{"kubeletEndpoint":{"Port":%d}}}}
                """
                        .formatted(kubelet.getLocalPort());
        assertThat(http.post("/api/v1/nodes", node).code()).isEqualTo(201);
        assertThat(http.post(
                                "/api/v1/namespaces/default/pods",
                                "{\"metadata\":{\"name\":\"web\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}")
                        .code())
                .isEqualTo(201);
        assertThat(http.post("/api/v1/namespaces/default/pods/web/binding", "{\"target\":{\"name\":\"node-s\"}}")
                        .code())
                .isEqualTo(201);
    }

    @AfterAll
    static void stop() throws Exception {
        kubelet.close();
        kubeletThreads.shutdownNow();
        api.close();
    }

    private static void serveKubelet() {
        while (!kubelet.isClosed()) {
            try {
                Socket s = kubelet.accept();
                kubeletThreads.execute(() -> {
                    try (s) {
                        // request after request on a kept-alive connection, until the API server closes it
                        String head;
                        while (!(head = readHead(s.getInputStream())).isEmpty()) {
                            OutputStream out = s.getOutputStream();
                            out.write(kubeletAnswer.apply(head)); // one write: status line, headers and data together
                            out.flush();
                        }
                    } catch (IOException e) {
                        // the API server went away
                    }
                });
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    @Test
    void bytesTheKubeletSendsWithItsSwitchingProtocolsReachTheClient() throws Exception {
        kubeletAnswer = head -> ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
                        + "Sec-WebSocket-Protocol: v4.channel.k8s.io\r\n\r\n"
                        + "ports announced first")
                .getBytes(StandardCharsets.US_ASCII);
        for (int round = 0; round < 20; round++) {
            try (Socket client =
                    upgrade("GET", "/api/v1/namespaces/default/pods/web/portforward?ports=80", "websocket")) {
                InputStream in = client.getInputStream();
                assertThat(readHead(in)).startsWith("HTTP/1.1 101 ").containsIgnoringCase("upgrade: websocket");
                assertThat(new String(in.readNBytes("ports announced first".length()), StandardCharsets.US_ASCII))
                        .as("round %d", round)
                        .isEqualTo("ports announced first");
            }
        }
    }

    @Test
    void aRefusalTheKubeletSendsInOneWriteComesBackAsAFinishedStatus() throws Exception {
        String message = "container not found (\"c\")";
        kubeletAnswer = head -> ("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: "
                        + (message.length() + 1) + "\r\n\r\n" + message + "\n")
                .getBytes(StandardCharsets.US_ASCII);
        for (int round = 0; round < 20; round++) {
            try (Socket client =
                    upgrade("GET", "/api/v1/namespaces/default/pods/web/exec?command=ls&stdout=true", "websocket")) {
                String answer = readAnswer(client.getInputStream());
                assertThat(answer)
                        .as("round %d", round)
                        .startsWith("HTTP/1.1 404 ")
                        .contains(message.replace("\"", "\\\""));
            }
        }
    }

    @Test
    void aSpdyUpgradeTheKubeletRefusesComesBackAsAFinishedStatus() throws Exception {
        String message = "refused: not over SPDY/3.1";
        kubeletAnswer = head -> (head.startsWith("POST /portforward/default/web/")
                        ? "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: "
                                + (message.length() + 1) + "\r\n\r\n" + message + "\n"
                        : "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        for (int round = 0; round < 10; round++) {
            try (Socket client = upgrade("POST", "/api/v1/namespaces/default/pods/web/portforward", "SPDY/3.1")) {
                String answer = readAnswer(client.getInputStream());
                assertThat(answer)
                        .as("round %d", round)
                        .startsWith("HTTP/1.1 400 ")
                        .contains("\"reason\":\"BadRequest\"")
                        .contains(message);
            }
        }
    }

    /** A raw upgrade request, as kubectl and fabric8 send it (a SPDY one is a POST). */
    private static Socket upgrade(String method, String path, String protocol) throws IOException {
        URI base = URI.create(api.url());
        Socket s = new Socket(InetAddress.getLoopbackAddress(), base.getPort());
        s.setSoTimeout(READ_TIMEOUT_MS);
        String request = method + " " + path + " HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\n"
                + "Connection: Upgrade\r\nUpgrade: " + protocol + "\r\n"
                + (protocol.equals("websocket")
                        ? "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                                + "Sec-WebSocket-Protocol: v4.channel.k8s.io\r\n"
                        : "X-Stream-Protocol-Version: portforward.k8s.io\r\nContent-Length: 0\r\n")
                + "\r\n";
        s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return s;
    }

    static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    /** A finished answer (the API server's Status goes with a Content-Length): its head and its whole body. */
    static String readAnswer(InputStream in) throws IOException {
        String head = readHead(in);
        String lower = head.toLowerCase(java.util.Locale.ROOT);
        int at = lower.indexOf("content-length:");
        assertThat(at).as(head).isNotNegative();
        int length = Integer.parseInt(head.substring(at + "content-length:".length(), lower.indexOf("\r\n", at))
                .trim());
        return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
