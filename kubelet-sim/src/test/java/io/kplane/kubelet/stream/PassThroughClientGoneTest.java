package io.kplane.kubelet.stream;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The endpoint's pass-through to the kubelet's JDK server when the client goes away in the middle of an
 * answer (a health probe that gave up, a log follow left): the answer is dropped, the endpoint goes on
 * serving, and nothing is written into a response that has already ended — before, Vert.x logged
 * IllegalStateException "Response has already been written" for every chunk of the backend's answer
 * still on its way (seen in the stack logs right after the kubelet was ready).
 */
class PassThroughClientGoneTest {
    private static final byte[] CHUNK = new byte[16 * 1024];

    private HttpServer backend;
    private StreamingServer endpoint;
    private ListAppender<ILoggingEvent> logged;
    private Logger root;

    @BeforeEach
    void start() throws Exception {
        Arrays.fill(CHUNK, (byte) 'x');
        root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        logged = new ListAppender<>();
        logged.start();
        root.addAppender(logged);
        backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.setExecutor(Executors.newCachedThreadPool());
        backend.createContext("/healthz", ex -> {
            byte[] ok = "ok".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, ok.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(ok);
            }
        });
        // a long answer written as fast as it can go (a log follow of a chatty container)
        backend.createContext("/containerLogs", ex -> {
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = ex.getResponseBody()) {
                for (int i = 0; i < 4096; i++) {
                    out.write(CHUNK);
                }
            } catch (java.io.IOException gone) {
                // the pass-through dropped us: expected
            }
        });
        backend.start();
        ContainerLookup none = (namespace, pod, uid, container) -> Optional.empty();
        endpoint = new StreamingServer(backend.getAddress().getPort(), Set.of(), none, null);
        endpoint.listen("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        root.detachAppender(logged);
        if (endpoint != null) {
            endpoint.close();
        }
        if (backend != null) {
            backend.stop(0);
        }
    }

    @Test
    void aClientLeavingInTheMiddleOfAnAnswerLeavesNoErrorAndTheEndpointServing() throws Exception {
        for (int round = 0; round < 20; round++) {
            try (Socket client = new Socket("127.0.0.1", endpoint.port())) {
                client.getOutputStream()
                        .write("GET /containerLogs/default/p/c?follow=true HTTP/1.1\r\nHost: k\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII));
                InputStream in = client.getInputStream();
                byte[] some = new byte[64 * 1024];
                int read = 0;
                while (read < some.length) {
                    int n = in.read(some, read, some.length - read);
                    assertThat(n).isPositive();
                    read += n;
                }
                // then the client stops reading and goes away, the backend still writing
            }
        }
        HttpResponse<String> health = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + "/healthz"))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("ok");
        // the endpoint has one event loop: the clients' closes and what followed were handled before this answer
        assertThat(logged.list)
                .filteredOn(e -> e.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.ERROR)
                        || e.getThrowableProxy() != null)
                .extracting(e -> e.getFormattedMessage() + " "
                        + (e.getThrowableProxy() == null
                                ? ""
                                : e.getThrowableProxy().getMessage()))
                .isEmpty();
    }
}
