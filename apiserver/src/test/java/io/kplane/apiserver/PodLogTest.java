package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.apiserver.testing.TestApiServer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** pods/log through a real HTTP endpoint standing in for the kubelet's /containerLogs. */
class PodLogTest {
    static TestApiServer api;
    static Http http;
    static Vertx vertx;
    static HttpServer kubelet;
    static final List<String> kubeletRequests = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start(o -> o.kubeletToken("kubelet-secret"));
        http = new Http(api.url());
        vertx = Vertx.vertx();
        kubelet = vertx.createHttpServer()
                .requestHandler(req -> {
                    kubeletRequests.add(req.uri() + " auth=" + req.getHeader("Authorization"));
                    if (req.path().endsWith("/missing")) {
                        req.response().setStatusCode(404).end("container not found");
                        return;
                    }
                    req.response().setChunked(true).putHeader("Content-Type", "text/plain");
                    req.response().write("line 1\n");
                    req.response().end("line 2\n");
                })
                .listen(0, "127.0.0.1")
                .await(10, TimeUnit.SECONDS);
        String node =
                """
                {"metadata":{"name":"node-a"},"status":{"addresses":[{"type":"Hostname","address":"localhost"},
                  {"type":"InternalIP","address":"127.0.0.1"}],
                  "daemonEndpoints":{"kubeletEndpoint":{"Port":%d}}}}
                """
                        .formatted(kubelet.actualPort());
        assertThat(http.post("/api/v1/nodes", node).code()).isEqualTo(201);
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    static void pod(String name, String containers, boolean bind) {
        http.post(
                "/api/v1/namespaces/default/pods",
                """
                {"metadata":{"name":"%s"},"spec":{"containers":[%s]}}"""
                        .formatted(name, containers));
        if (bind) {
            http.post("/api/v1/namespaces/default/pods/" + name + "/binding", "{\"target\":{\"name\":\"node-a\"}}");
        }
    }

    @Test
    void logsAreProxiedToTheKubeletWithTheQueryAndToken() {
        pod("one", "{\"name\":\"main\",\"image\":\"i\"}", true);
        Http.Response r = http.get("/api/v1/namespaces/default/pods/one/log?tailLines=5&timestamps=true&follow=true");
        assertThat(r.code()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("line 1\nline 2\n");
        assertThat(r.header("Content-Type")).startsWith("text/plain");
        assertThat(kubeletRequests)
                .anyMatch(
                        u -> u.equals(
                                "/containerLogs/default/one/main?follow=true&tailLines=5&timestamps=true auth=Bearer kubelet-secret"));
    }

    @Test
    void containerMustBeChosenWhenThereAreSeveral() {
        pod("two", "{\"name\":\"a\",\"image\":\"i\"},{\"name\":\"b\",\"image\":\"i\"}", true);
        Http.Response r = http.get("/api/v1/namespaces/default/pods/two/log");
        assertThat(r.code()).isEqualTo(400);
        assertThat(r.json().get("message").asText())
                .isEqualTo("a container name must be specified for pod two, choose one of: [a b]");
        assertThat(http.get("/api/v1/namespaces/default/pods/two/log?container=b")
                        .code())
                .isEqualTo(200);
        assertThat(http.get("/api/v1/namespaces/default/pods/two/log?container=zz")
                        .code())
                .isEqualTo(400);
    }

    @Test
    void podWithoutNodeHasNoLogs() {
        pod("pending", "{\"name\":\"a\",\"image\":\"i\"}", false);
        Http.Response r = http.get("/api/v1/namespaces/default/pods/pending/log");
        assertThat(r.code()).isEqualTo(400);
        assertThat(r.json().get("message").asText()).isEqualTo("pod pending does not have a host assigned");
        assertThat(http.get("/api/v1/namespaces/default/pods/nosuch/log").code())
                .isEqualTo(404);
    }
}
