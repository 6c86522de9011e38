package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeletionTest extends ApiServerHttpTest {
    static final String JOBS = "/apis/batch/v1/namespaces/default/jobs";
    static final String PODS = "/api/v1/namespaces/default/pods";

    static String job(String name) {
        return """
                {"metadata":{"name":"%s"},
                 "spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"Never"}}}}
                """
                .formatted(name);
    }

    static String pod(String name, String extraSpec) {
        return """
                {"metadata":{"name":"%s"},"spec":{%s"containers":[{"name":"c","image":"busybox"}]}}
                """
                .formatted(name, extraSpec);
    }

    @Test
    void jobsDefaultToOrphanAndStayUntilTheFinalizerIsRemoved() {
        http.post(JOBS, job("orphan"));
        Http.Response r = http.delete(JOBS + "/orphan");
        assertThat(r.code()).as(r.body()).isEqualTo(200);
        assertThat(r.json().at("/metadata/finalizers/0").asText()).isEqualTo("orphan");
        assertThat(r.json().at("/metadata/deletionTimestamp").asText()).isNotEmpty();
        assertThat(http.get(JOBS + "/orphan").code()).isEqualTo(200);

        Http.Response added = http.patch(
                JOBS + "/orphan",
                "{\"metadata\":{\"finalizers\":[\"orphan\",\"x/y\"]}}",
                "application/merge-patch+json");
        assertThat(added.code()).isEqualTo(422);

        Http.Response removed =
                http.patch(JOBS + "/orphan", "{\"metadata\":{\"finalizers\":null}}", "application/merge-patch+json");
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

        assertThat(http.delete(JOBS + "/fg", "{\"propagationPolicy\":\"Sideways\"}")
                        .code())
                .isEqualTo(422);
    }

    @Test
    void preconditionsAndDryRun() {
        http.post(JOBS, job("pre"));
        Http.Response wrongUid = http.delete(
                JOBS + "/pre", "{\"propagationPolicy\":\"Background\",\"preconditions\":{\"uid\":\"nope\"}}");
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
        Http.Response bind = http.post(
                PODS + "/bound/binding",
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"bound\"},"
                        + "\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"n1\"}}");
        assertThat(bind.code()).as(bind.body()).isEqualTo(201);
        Http.Response pod = http.get(PODS + "/bound");
        assertThat(pod.json().at("/spec/nodeName").asText()).isEqualTo("n1");
        assertThat(pod.json().at("/status/conditions/0/type").asText()).isEqualTo("PodScheduled");
        assertThat(pod.json().at("/status/conditions/0/status").asText()).isEqualTo("True");
        assertThat(http.post(PODS + "/bound/binding", "{\"target\":{\"name\":\"n2\"}}")
                        .code())
                .isEqualTo(409);

        Http.Response graceful = http.delete(PODS + "/bound");
        assertThat(graceful.code()).isEqualTo(200);
        assertThat(graceful.json().at("/metadata/deletionGracePeriodSeconds").asLong())
                .isEqualTo(12);
        assertThat(http.get(PODS + "/bound").code()).isEqualTo(200);
        // a status update by the kubelet while the pod terminates is fine
        assertThat(http.patch(
                                PODS + "/bound/status",
                                "{\"status\":{\"phase\":\"Succeeded\"}}",
                                "application/merge-patch+json")
                        .code())
                .isEqualTo(200);
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
        assertThat(deleting.json().at("/metadata/deletionGracePeriodSeconds").asLong())
                .isZero();
        Http.Response removed = http.patch(
                path + "/l1", "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]", "application/json-patch+json");
        assertThat(removed.code()).as(removed.body()).isEqualTo(200);
        assertThat(http.get(path + "/l1").code()).isEqualTo(404);
    }

    /**
     * Without a namespace controller running, a deleted namespace stays Terminating with its content;
     * creates in it are refused as kube-apiserver's NamespaceLifecycle admission refuses them. The
     * cascade itself: controllers' NamespaceControllerTest.
     */
    @Test
    void deletingANamespaceMarksItTerminatingAndRefusesCreatesInIt() {
        assertThat(http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"gone\"}}")
                        .code())
                .isEqualTo(201);
        http.post("/api/v1/namespaces/gone/pods", pod("p", ""));
        Http.Response deleted = http.delete("/api/v1/namespaces/gone");
        assertThat(deleted.code()).as(deleted.body()).isEqualTo(200);
        assertThat(deleted.json().at("/kind").asText()).isEqualTo("Namespace");
        assertThat(deleted.json().at("/metadata/deletionTimestamp").asText()).isNotEmpty();
        assertThat(deleted.json().at("/status/phase").asText()).isEqualTo("Terminating");
        assertThat(deleted.json().at("/spec/finalizers/0").asText()).isEqualTo("kubernetes");

        Http.Response ns = http.get("/api/v1/namespaces/gone");
        assertThat(ns.code()).isEqualTo(200);
        assertThat(ns.json().at("/status/phase").asText()).isEqualTo("Terminating");
        assertThat(http.get("/api/v1/namespaces/gone/pods/p").code()).isEqualTo(200);

        Http.Response refused = http.post("/apis/batch/v1/namespaces/gone/jobs", job("j"));
        assertThat(refused.code()).isEqualTo(403);
        assertThat(refused.json().at("/reason").asText()).isEqualTo("Forbidden");
        assertThat(refused.json().at("/message").asText())
                .isEqualTo("jobs.batch \"j\" is forbidden: unable to create "
                        + "new content in namespace gone because it is being terminated");
        assertThat(refused.json().at("/details/name").asText()).isEqualTo("j");
        assertThat(refused.json().at("/details/group").asText()).isEqualTo("batch");
        assertThat(refused.json().at("/details/kind").asText()).isEqualTo("jobs");
        assertThat(refused.json().at("/details/causes/0/reason").asText()).isEqualTo("NamespaceTerminating");
        assertThat(refused.json().at("/details/causes/0/message").asText())
                .isEqualTo("namespace gone is being terminated");
        assertThat(refused.json().at("/details/causes/0/field").asText()).isEqualTo("metadata.namespace");
        Http.Response generated =
                http.post("/api/v1/namespaces/gone/configmaps", "{\"metadata\":{\"generateName\":\"cm-\"}}");
        assertThat(generated.code()).isEqualTo(403);
        assertThat(generated.json().at("/message").asText()).startsWith("configmaps \"cm-\" is forbidden: ");
        // updates and deletes of the content go on (the namespace controller needs them)
        assertThat(http.patch(
                                "/api/v1/namespaces/gone/pods/p",
                                "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}",
                                "application/merge-patch+json")
                        .code())
                .isEqualTo(200);
        // a missing namespace keeps its 404
        Http.Response missing = http.post("/api/v1/namespaces/never/pods", pod("p", ""));
        assertThat(missing.code()).isEqualTo(404);
        assertThat(missing.json().at("/message").asText()).isEqualTo("namespaces \"never\" not found");

        // while the kubernetes finalizer is there, another DELETE is a 409 as in kube-apiserver
        Http.Response again = http.delete("/api/v1/namespaces/gone");
        assertThat(again.code()).isEqualTo(409);
        assertThat(again.json().at("/message").asText()).contains("The system is ensuring all content is removed");
        // a status update (the controller's conditions) does not end it
        Http.Response status = http.put(
                "/api/v1/namespaces/gone/status",
                http.get("/api/v1/namespaces/gone").body());
        assertThat(status.code()).as(status.body()).isEqualTo(200);
        assertThat(http.get("/api/v1/namespaces/gone").code()).isEqualTo(200);
        // finalize only changes spec.finalizers; emptying them ends the deletion
        String body = http.get("/api/v1/namespaces/gone")
                .body()
                .replace("\"finalizers\":[\"kubernetes\"]", "\"finalizers\":[]")
                .replace("\"Terminating\"", "\"Active\"");
        Http.Response finalized = http.put("/api/v1/namespaces/gone/finalize", body);
        assertThat(finalized.code()).as(finalized.body()).isEqualTo(200);
        assertThat(http.get("/api/v1/namespaces/gone").code()).isEqualTo(404);

        assertThat(http.delete("/api/v1/namespaces/default").code()).isEqualTo(403);
    }

    @Test
    void deleteCollectionBySelector() {
        for (String n : new String[] {"dc1", "dc2", "dc3"}) {
            http.post(
                    PODS,
                    "{\"metadata\":{\"name\":\"" + n + "\",\"labels\":{\"dc\":\"" + (n.equals("dc3") ? "keep" : "go")
                            + "\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
        }
        Http.Response r = http.delete(PODS + "?labelSelector=dc%3Dgo");
        assertThat(r.code()).as(r.body()).isEqualTo(200);
        assertThat(r.json().get("items").size()).isEqualTo(2);
        assertThat(http.get(PODS + "/dc1").code()).isEqualTo(404);
        assertThat(http.get(PODS + "/dc3").code()).isEqualTo(200);
    }
}
