package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Throws malformed and hostile bodies, paths, headers and query parameters at every endpoint and
 * checks that none is answered with a server error and every error is a Status.
 */
class BadInputSweepTest extends ApiServerHttpTest {
    @BeforeAll
    static void seed() {
        http.post(
                "/api/v1/namespaces/default/pods",
                "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
        http.post(
                "/apis/batch/v1/namespaces/default/jobs",
                "{\"metadata\":{\"name\":\"j\"},\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}],\"restartPolicy\":\"Never\"}}}}");
    }

    static final List<String> PATHS = List.of(
            "/api/v1/namespaces/default/pods",
            "/api/v1/namespaces/default/pods/p",
            "/api/v1/namespaces/default/pods/p/status",
            "/api/v1/namespaces/default/pods/p/binding",
            "/api/v1/namespaces/default/pods/p/log",
            "/api/v1/nodes",
            "/api/v1/nodes/n",
            "/api/v1/namespaces",
            "/api/v1/namespaces/default",
            "/api/v1/namespaces/default/status",
            "/apis/batch/v1/namespaces/default/jobs",
            "/apis/batch/v1/namespaces/default/jobs/j",
            "/apis/batch/v1/namespaces/default/jobs/j/status",
            "/apis/batch/v1/namespaces/default/cronjobs/c",
            "/apis/coordination.k8s.io/v1/namespaces/default/leases",
            "/api/v1/namespaces/default/events",
            "/apis/batch/v1/jobs",
            "/api/v1/pods");

    static final List<String> BODIES = List.of(
            "",
            "{",
            "null",
            "[]",
            "123",
            "\"s\"",
            "{}",
            "[1,2",
            "{\"metadata\":\"x\"}",
            "{\"metadata\":{\"name\":123}}",
            "{\"metadata\":{\"labels\":[1]}}",
            "{\"metadata\":{\"name\":\"BAD NAME\"}}",
            "{\"spec\":[]}",
            "{\"spec\":{\"containers\":\"x\"}}",
            "{\"kind\":\"Other\",\"apiVersion\":\"v9\"}",
            "{\"metadata\":{\"name\":\"p\",\"namespace\":\"other\"}}",
            "[{\"op\":\"explode\"}]",
            "[{\"op\":\"remove\",\"path\":\"/nope\"}]",
            "[{\"op\":\"replace\",\"path\":\"/metadata\",\"value\":1}]",
            "{\"metadata\":{\"finalizers\":{\"a\":1}}}",
            "{\"status\":\"x\"}",
            "{\"target\":[]}",
            "{\"metadata\":{\"creationTimestamp\":\"yesterday\"}}",
            "{\"spec\":{\"parallelism\":\"many\"}}",
            "[".repeat(5000),
            "{\"a\":".repeat(3000),
            "\u0000\u0001\u0002garbage\uFFFF",
            "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n",
            "key: [unclosed",
            "--- !!java.lang.Runtime {}",
            "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"bogus\":1}]}}",
            "{\"propagationPolicy\":7}",
            "{\"gracePeriodSeconds\":\"x\"}",
            "{\"preconditions\":[]}",
            "9".repeat(400));

    static final List<String> CONTENT_TYPES = List.of(
            "application/json",
            "application/yaml",
            "application/merge-patch+json",
            "application/json-patch+json",
            "application/strategic-merge-patch+json",
            "application/apply-patch+yaml",
            "application/vnd.kubernetes.protobuf",
            "text/plain",
            "garbage;;;=",
            "");

    static final List<String> QUERIES = List.of(
            "",
            "?limit=-1",
            "?limit=abc",
            "?limit=99999999999999",
            "?continue=garbage",
            "?continue=eyJ2IjoxfQ",
            "?resourceVersion=abc",
            "?resourceVersion=-1",
            "?resourceVersion=99999999999999999999",
            "?resourceVersionMatch=Exact&resourceVersion=1",
            "?resourceVersionMatch=Bogus&resourceVersion=1",
            "?labelSelector=(((",
            "?labelSelector=a%20in%20b",
            "?fieldSelector=nonsense",
            "?fieldSelector=spec.x%3Dy",
            "?watch=true&resourceVersion=abc",
            "?watch=true&timeoutSeconds=-5",
            "?watch=true&timeoutSeconds=abc",
            "?watch=true&timeoutSeconds=1&resourceVersion=1",
            "?gracePeriodSeconds=abc",
            "?propagationPolicy=Sideways",
            "?dryRun=Maybe",
            "?fieldValidation=Loose",
            "?fieldManager=",
            "?follow=maybe&tailLines=abc",
            "?container=%00",
            "?%zz=1",
            "?watch=1&timeoutSeconds=1");

    static final List<String> ODD_PATHS = List.of(
            "/api/v1/namespaces/%zz/pods",
            "/api/v1/namespaces//pods",
            "/api/v1/namespaces/default/pods/" + "x".repeat(5000),
            "/apis/batch/v1/namespaces/default/jobs/a/b/c",
            "/api/v2/pods",
            "/apis/nope/v1/things",
            "/apis/batch/v9/jobs",
            "/api/v1/namespaces/default/pods/p/exec",
            "/api/v1/nodes/n/log",
            "/api/v1/namespaces/default/nodes",
            "/api/v1/namespaces/d\u00e9j\u00e0/pods",
            "/api/v1/namespaces/default/pods/..%2f..%2fetc",
            "/apis",
            "/apis/batch",
            "/apis/nope",
            "/api",
            "/api/v1",
            "/version",
            "/openapi/v3",
            "/openapi/v3/apis/nope",
            "/openapi/v2",
            "/metrics",
            "/readyz",
            "/",
            "/favicon.ico",
            "/api/v1/namespaces/default/pods/p/log/extra");

    static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE");

    record Probe(String method, String path, String body, String contentType, String accept) {}

    @Test
    void noClientMistakeIsAServerError() {
        List<Probe> probes = new ArrayList<>();
        int n = 0;
        for (String path : PATHS) {
            for (String method : List.of("POST", "PUT", "PATCH", "DELETE")) {
                for (String body : BODIES) {
                    // every body with two content types, rotating so that all pairs occur across paths
                    probes.add(new Probe(method, path, body, CONTENT_TYPES.get(n % CONTENT_TYPES.size()), null));
                    probes.add(new Probe(method, path, body, CONTENT_TYPES.get((n + 3) % CONTENT_TYPES.size()), null));
                    n++;
                }
            }
            for (String method : List.of("GET", "POST", "DELETE", "PATCH")) {
                for (String query : QUERIES) {
                    probes.add(new Probe(method, path + query, null, null, null));
                }
            }
        }
        for (String path : ODD_PATHS) {
            for (String method : METHODS) {
                probes.add(new Probe(method, path, "{}", "application/json", null));
            }
        }
        for (String accept : List.of(
                "garbage",
                "application/json;as=Nonsense;g=x;v=y",
                "*/*;q=abc",
                "application/vnd.kubernetes.protobuf",
                "application/json;as=Table;v=v1;g=meta.k8s.io",
                ";;;,,,",
                "application/json;g=apidiscovery.k8s.io;v=v9;as=APIGroupDiscoveryList")) {
            for (String path : List.of(
                    "/api",
                    "/apis",
                    "/api/v1/namespaces/default/pods",
                    "/api/v1/namespaces/default/pods/p",
                    "/apis/batch/v1/namespaces/default/jobs?watch=true&timeoutSeconds=1")) {
                probes.add(new Probe("GET", path, null, null, accept));
            }
        }
        // shuffle deterministically so that request kinds interleave
        java.util.Collections.shuffle(probes, new Random(42));

        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        Semaphore window = new Semaphore(16);
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (Probe p : probes) {
            HttpRequest request;
            try {
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api.url() + p.path()))
                        .timeout(Duration.ofSeconds(20))
                        .method(
                                p.method(),
                                p.body() == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(p.body()));
                if (p.contentType() != null && !p.contentType().isEmpty()) {
                    b.header("Content-Type", p.contentType());
                }
                if (p.accept() != null) {
                    b.header("Accept", p.accept());
                }
                request = b.build();
            } catch (IllegalArgumentException e) {
                continue; // the JDK client refuses this URI or header itself
            }
            window.acquireUninterruptibly();
            all.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                    .whenComplete((r, t) -> {
                        window.release();
                        if (t != null) {
                            failures.add(p + " -> " + t);
                        } else if (r.statusCode() >= 500) {
                            failures.add(p + " -> " + r.statusCode() + " " + r.body());
                        } else if (r.statusCode() >= 400
                                && !p.method().equals("HEAD")
                                && !r.body().contains("\"kind\":\"Status\"")) {
                            failures.add(p + " -> " + r.statusCode() + " not a Status: " + r.body());
                        }
                    }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .exceptionally(t -> null)
                .join();
        assertThat(failures).as("%d probes", probes.size()).isEmpty();
        assertThat(http.get("/readyz").code()).isEqualTo(200);
    }
}
