package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Shapes as kube-apiserver returns them: non-pointer struct fields are always present. */
class ResponseShapesTest extends ApiServerHttpTest {
    static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
    static final String JOBS = "/apis/batch/v1/namespaces/default/jobs";

    @Test
    void aLeaseCreatedWithoutSpecHasAnEmptySpec() {
        Http.Response created = http.post(LEASES, "{\"metadata\":{\"name\":\"bare\"}}");
        assertThat(created.code()).isEqualTo(201);
        assertThat(created.json().get("spec").isObject()).isTrue();
        assertThat(created.json().get("spec").size()).isZero();
        assertThat(http.get(LEASES + "/bare").json().get("spec").isObject()).isTrue();
        // an update that drops the spec still reads back {}
        Http.Response updated =
                http.put(LEASES + "/bare", "{\"metadata\":{\"name\":\"bare\",\"labels\":{\"a\":\"b\"}}}");
        assertThat(updated.code()).as(updated.body()).isEqualTo(200);
        assertThat(updated.json().get("spec").isObject()).isTrue();
        assertThat(created.json().has("status")).isFalse();
    }

    @Test
    void aNewJobHasAnEmptyStatusAndANullStatusUpdateKeepsIt() {
        Http.Response job = http.post(
                JOBS,
                """
                {"metadata":{"name":"shape"},"spec":{"template":{"spec":{"restartPolicy":"Never",
                 "containers":[{"name":"c","image":"busybox"}]}}}}""");
        assertThat(job.code()).as(job.body()).isEqualTo(201);
        assertThat(job.json().get("status").isObject()).isTrue();
        assertThat(job.json().get("status").size()).isZero();
        String body = job.body().replaceFirst("\"status\":\\{}", "\"status\":null");
        Http.Response status = http.put(JOBS + "/shape/status", body);
        assertThat(status.code()).as(status.body()).isEqualTo(200);
        assertThat(status.json().get("status").isObject()).isTrue();
    }

    @Test
    void anEventHasItsStructFields() {
        Http.Response event = http.post(
                "/api/v1/namespaces/default/events",
                "{\"metadata\":{\"name\":\"e1\"},\"reason\":\"R\",\"message\":\"m\"}");
        assertThat(event.code()).as(event.body()).isEqualTo(201);
        assertThat(event.json().get("involvedObject").isObject()).isTrue();
        assertThat(event.json().get("source").isObject()).isTrue();
    }
}
