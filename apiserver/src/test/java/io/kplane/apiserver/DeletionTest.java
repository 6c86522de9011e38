package io.kplane.apiserver;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DeletionTest extends ApiServerHttpTest {
    static final String JOBS = "/apis/batch/v1/namespaces/default/jobs";
    static final String PODS = "/api/v1/namespaces/default/pods";

    static String job(String name) {
        return """
                {"metadata":{"name":"%s"},
                 "spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"Never"}}}}
                """.formatted(name);
    }

    static String pod(String name, String extraSpec) {
        return """
                {"metadata":{"name":"%s"},"spec":{%s"containers":[{"name":"c","image":"busybox"}]}}
                """.formatted(name, extraSpec);
    }

    @Test
    void jobsDefaultToOrphanAndStayUntilTheFinalizerIsRemoved() {
        http.post(JOBS, job("orphan"));
        Http.Response r = http.delete(JOBS + "/orphan");
        assertThat(r.code()).as(r.body()).isEqualTo(200);
        assertThat(r.json().at("/metadata/finalizers/0").asText()).isEqualTo("orphan");
        assertThat(r.json().at("/metadata/deletionTimestamp").asText()).isNotEmpty();
        assertThat(http.get(JOBS + "/orphan").code()).isEqualTo(200);

        Http.Response added = http.patch(JOBS + "/orphan", "{\"metadata\":{\"finalizers\":[\"orphan\",\"x/y\"]}}",
                "application/merge-patch+json");
        assertThat(added.code()).isEqualTo(422);

        Http.Response removed = http.patch(JOBS + "/orphan", "{\"metadata\":{\"finalizers\":null}}",
                "application/merge-patch+json");
        assertThat(removed.code()).as(removed.body()).isEqualTo(200);
        assertThat(http.get(JOBS + "/orphan").code()).isEqualTo(404);
    }

    @Test
    void foregroundIsAcceptedWithItsFinalizerAndBackgroundDeletesAtOnce() {
        http.post(JOBS, job("fg"));
        Http.Response fg = http.delete(JOBS + "/fg", "{\"propagationPolicy\":\"Foreground\"}");
        // 200 with the object, as kube-apiserver answers a Foreground delete
        assertThat(fg.code()).isEqualTo(200);
        assertThat(fg.json().get("kind").asText()).isEqualTo("Job");
        assertThat(fg.json().at("/metadata/finalizers/0").asText()).isEqualTo("foregroundDeletion");
        // 202 only in kube-apiserver's documented case: the object stays and orphanDependents=false was sent
        http.post(JOBS, job("legacy"));
        Http.Response legacy = http.delete(JOBS + "/legacy", "{\"orphanDependents\":false}");
        assertThat(legacy.code()).isEqualTo(202);
        assertThat(legacy.json().at("/metadata/finalizers/0").asText()).isEqualTo("foregroundDeletion");

        String uid = http.post(JOBS, job("bg")).json().at("/metadata/uid").asText();
        Http.Response bg = http.delete(JOBS + "/bg?propagationPolicy=Background");
        assertThat(bg.code()).isEqualTo(200);
        assertThat(bg.json().get("kind").asText()).isEqualTo("Status");
        assertThat(bg.json().at("/details/name").asText()).isEqualTo("bg");
        assertThat(bg.json().at("/details/group").asText()).isEqualTo("batch");
        assertThat(bg.json().at("/details/kind").asText()).isEqualTo("jobs");
        assertThat(bg.json().at("/details/uid").asText()).isEqualTo(uid);
        assertThat(http.get(JOBS + "/bg").code()).isEqualTo(404);

        assertThat(http.delete(JOBS + "/fg", "{\"propagationPolicy\":\"Sideways\"}").code()).isEqualTo(422);
    }

    @Test
    void preconditionsAndDryRun() {
        http.post(JOBS, job("pre"));
        Http.Response wrongUid = http.delete(JOBS + "/pre",
                "{\"propagationPolicy\":\"Background\",\"preconditions\":{\"uid\":\"nope\"}}");
        assertThat(wrongUid.code()).isEqualTo(409);
        Http.Response dry = http.delete(JOBS + "/pre", "{\"propagationPolicy\":\"Background\",\"dryRun\":[\"All\"]}");
        assertThat(dry.code()).isEqualTo(200);
        assertThat(http.get(JOBS + "/pre").code()).isEqualTo(200);
    }

    @Test
    void boundPodsAreDeletedGracefullyUnboundPodsAtOnce() {
        http.post(PODS, pod("unbound", ""));
        assertThat(http.delete(PODS + "/unbound").code()).isEqualTo(200);
        assertThat(http.get(PODS + "/unbound").code()).isEqualTo(404);

        http.post(PODS, pod("bound", "\"terminationGracePeriodSeconds\":12,"));
        Http.Response bind = http.post(PODS + "/bound/binding",
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"bound\"},"
                        + "\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"n1\"}}");
        assertThat(bind.code()).as(bind.body()).isEqualTo(201);
        Http.Response pod = http.get(PODS + "/bound");
        assertThat(pod.json().at("/spec/nodeName").asText()).isEqualTo("n1");
        assertThat(pod.json().at("/status/conditions/0/type").asText()).isEqualTo("PodScheduled");
        assertThat(pod.json().at("/status/conditions/0/status").asText()).isEqualTo("True");
        assertThat(http.post(PODS + "/bound/binding", "{\"target\":{\"name\":\"n2\"}}").code()).isEqualTo(409);

        Http.Response graceful = http.delete(PODS + "/bound");
        assertThat(graceful.code()).isEqualTo(200);
        assertThat(graceful.json().at("/metadata/deletionGracePeriodSeconds").asLong()).isEqualTo(12);
        assertThat(http.get(PODS + "/bound").code()).isEqualTo(200);
        // a status update by the kubelet while the pod terminates is fine
        assertThat(http.patch(PODS + "/bound/status", "{\"status\":{\"phase\":\"Succeeded\"}}",
                "application/merge-patch+json").code()).isEqualTo(200);
        assertThat(http.delete(PODS + "/bound?gracePeriodSeconds=0").code()).isEqualTo(200);
        assertThat(http.get(PODS + "/bound").code()).isEqualTo(404);
    }

    @Test
    void finalizersHoldAnyObject() {
        String lease = "{\"metadata\":{\"name\":\"l1\",\"finalizers\":[\"example.com/hold\"]},\"spec\":{}}";
        String path = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
        assertThat(http.post(path, lease).code()).isEqualTo(201);
        Http.Response deleting = http.delete(path + "/l1");
        assertThat(deleting.code()).isEqualTo(200);
        assertThat(deleting.json().at("/metadata/deletionTimestamp").asText()).isNotEmpty();
        assertThat(deleting.json().at("/metadata/deletionGracePeriodSeconds").asLong()).isZero();
        Http.Response removed = http.patch(path + "/l1",
                "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]", "application/json-patch+json");
        assertThat(removed.code()).as(removed.body()).isEqualTo(200);
        assertThat(http.get(path + "/l1").code()).isEqualTo(404);
    }

    @Test
    void deletingANamespaceRemovesItsObjects() {
        assertThat(http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"gone\"}}").code()).isEqualTo(201);
        http.post("/api/v1/namespaces/gone/pods", pod("p", ""));
        http.post("/apis/batch/v1/namespaces/gone/jobs", job("j"));
        assertThat(http.delete("/api/v1/namespaces/gone").code()).isEqualTo(200);
        assertThat(http.get("/api/v1/namespaces/gone/pods/p").code()).isEqualTo(404);
        assertThat(http.get("/apis/batch/v1/namespaces/gone/jobs/j").code()).isEqualTo(404);
        assertThat(http.get("/api/v1/namespaces/gone").code()).isEqualTo(404);
        assertThat(http.delete("/api/v1/namespaces/default").code()).isEqualTo(403);
    }

    @Test
    void deleteCollectionBySelector() {
        for (String n : new String[]{"dc1", "dc2", "dc3"}) {
            http.post(PODS, "{\"metadata\":{\"name\":\"" + n + "\",\"labels\":{\"dc\":\"" + (n.equals("dc3") ? "keep" : "go")
                    + "\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
        }
        Http.Response r = http.delete(PODS + "?labelSelector=dc%3Dgo");
        assertThat(r.code()).as(r.body()).isEqualTo(200);
        assertThat(r.json().get("items").size()).isEqualTo(2);
        assertThat(http.get(PODS + "/dc1").code()).isEqualTo(404);
        assertThat(http.get(PODS + "/dc3").code()).isEqualTo(200);
    }
}
