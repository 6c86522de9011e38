package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The watch over a WebSocket, as kube-apiserver serves it to clients that ask for the upgrade. */
class WebSocketWatchTest extends ApiServerHttpTest {
    @BeforeAll
    static void seed() {
        http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"ws\"}}");
    }

    static String pod(String name, String app) {
        return ListWatchTest.pod(name, app);
    }

    @Test
    void oneEventPerTextFrameWithSelectorSemantics() throws Exception {
        http.post("/api/v1/namespaces/ws/pods", pod("w0", "web"));
        try (WebSocketWatchClient w =
                new WebSocketWatchClient(api.url() + "/api/v1/namespaces/ws/pods?watch=true&labelSelector=app%3Dweb")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> w.summary().contains("ADDED w0"));
            http.post("/api/v1/namespaces/ws/pods", pod("w1", "web"));
            http.patch(
                    "/api/v1/namespaces/ws/pods/w1",
                    "{\"metadata\":{\"labels\":{\"app\":\"db\"}}}",
                    "application/merge-patch+json");
            http.post("/api/v1/namespaces/ws/pods", pod("nomatch", "db"));
            http.patch(
                    "/api/v1/namespaces/ws/pods/w0",
                    "{\"metadata\":{\"annotations\":{\"a\":\"b\"}}}",
                    "application/merge-patch+json");
            await().atMost(Duration.ofSeconds(10)).until(() -> w.summary().size() >= 4);
            assertThat(w.summary()).containsExactly("ADDED w0", "ADDED w1", "DELETED w1", "MODIFIED w0");
            // each frame is one whole event, newline-terminated like Go's json.Encoder output
            for (String frame : w.frames()) {
                assertThat(frame).endsWith("}\n").doesNotContain("}\n{");
            }
        }
    }

    @Test
    void resumesFromAResourceVersionAndClosesAtTheTimeout() throws Exception {
        String rv = http.post("/api/v1/namespaces/ws/pods", pod("r0", "resume"))
                .json()
                .at("/metadata/resourceVersion")
                .asText();
        http.post("/api/v1/namespaces/ws/pods", pod("r1", "resume"));
        try (WebSocketWatchClient w = new WebSocketWatchClient(api.url() + "/api/v1/namespaces/ws/pods?watch=true"
                + "&resourceVersion=" + rv + "&labelSelector=app%3Dresume&timeoutSeconds=1")) {
            await().atMost(Duration.ofSeconds(10)).until(w::closed);
            assertThat(w.closeStatus()).isEqualTo(1000);
            assertThat(w.summary()).containsExactly("ADDED r1");
        }
    }

    @Test
    void bookmarksArriveAsFrames() throws Exception {
        try (WebSocketWatchClient w = new WebSocketWatchClient(api.url() + "/api/v1/namespaces/ws/pods?watch=true"
                + "&allowWatchBookmarks=true&labelSelector=app%3Dbm")) {
            String rv = http.post("/api/v1/namespaces/ws/pods", pod("b0", "other"))
                    .json()
                    .at("/metadata/resourceVersion")
                    .asText();
            await().atMost(Duration.ofSeconds(10)).until(() -> w.events().stream()
                    .filter(e -> e.get("type").asText().equals("BOOKMARK"))
                    .anyMatch(b -> Long.parseLong(
                                    b.at("/object/metadata/resourceVersion").asText())
                            >= Long.parseLong(rv)));
            assertThat(w.summary()).isEmpty();
        }
    }

    @Test
    void aBadWatchIsRefusedBeforeTheUpgrade() throws Exception {
        // validation happens before the handshake: a plain HTTP Status, not a 101
        String head = rawUpgrade("/api/v1/namespaces/ws/pods?watch=true&labelSelector=%3D%3D%3D", true);
        assertThat(head).startsWith("HTTP/1.1 400");
    }

    @Test
    void anUpgradeThatCannotBeServedGetsAFinishedError() throws Exception {
        // no Sec-WebSocket-Key: the handshake cannot complete; the answer is a finished 400, not a 200 stream
        String head = rawUpgrade("/api/v1/namespaces/ws/pods?watch=true", false);
        assertThat(head).startsWith("HTTP/1.1 400");
        assertThat(head).contains("\"reason\":\"BadRequest\"");
    }

    @Test
    void aLogFollowUpgradeGetsAFinishedError() throws Exception {
        http.post("/api/v1/namespaces/ws/pods", pod("logged", "x"));
        String head = rawUpgrade("/api/v1/namespaces/ws/pods/logged/log?follow=true", true);
        assertThat(head).startsWith("HTTP/1.1 400");
        assertThat(head).contains("\"reason\":\"BadRequest\"");
    }

    @Test
    void theHandshakeIs101() throws Exception {
        String head = rawUpgrade("/api/v1/namespaces/ws/pods?watch=true", true);
        assertThat(head).startsWith("HTTP/1.1 101");
        assertThat(head.toLowerCase(Locale.ROOT)).contains("upgrade: websocket");
    }

    /** Sends an upgrade request by hand and returns what the server answers (head, and body if any). */
    private static String rawUpgrade(String path, boolean withKey) throws Exception {
        URI base = URI.create(api.url());
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\nConnection: Upgrade\r\n"
                            + "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                            + (withKey ? "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" : "") + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            StringBuilder head = new StringBuilder();
            String line;
            int contentLength = -1;
            while ((line = in.readLine()) != null && !line.isEmpty()) {
                head.append(line).append('\n');
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    contentLength = Integer.parseInt(line.substring(15).trim());
                }
            }
            if (contentLength > 0) {
                char[] body = new char[contentLength];
                int read = 0;
                while (read < contentLength) {
                    int n = in.read(body, read, contentLength - read);
                    if (n < 0) {
                        break;
                    }
                    read += n;
                }
                head.append(body, 0, read);
            }
            return head.toString();
        }
    }

    static JsonNode last(WebSocketWatchClient w) {
        return w.events().get(w.events().size() - 1);
    }
}
