package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The lens's SyncRecord kind (docs/lens.md): discovered, validated, bounded, printed as a Table. */
class SyncRecordResourceTest extends ApiServerHttpTest {
    private static final String PATH = "/apis/lens.kplane.io/v1/namespaces/default/syncrecords";
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";

    private static String record(String name, int entries) {
        StringBuilder records = new StringBuilder();
        for (int i = 0; i < entries; i++) {
            records.append(i == 0 ? "" : ",")
                    .append(
                            """
                    {"time":"2026-11-23T10:00:0%dZ","seq":%d,"component":"job-controller","controller":"job",
                     "triggers":[{"type":"ADDED","resource":"jobs","key":"default/pi","rv":"5"}],
                     "saw":{"active":%d},"decision":"pods_created","writes":[],"events":[],"durationMs":1.5}"""
                                    .formatted(i % 10, i, i));
        }
        return """
                {"apiVersion":"lens.kplane.io/v1","kind":"SyncRecord","metadata":{"name":"%s"},
                 "target":{"apiVersion":"batch/v1","kind":"Job","resource":"jobs","namespace":"default","name":"pi","uid":"u-1"},
                 "component":"job-controller","controller":"job","records":[%s]}"""
                .formatted(name, records);
    }

    @Test
    void servedDiscoveredValidatedAndPrinted() {
        JsonNode resources = http.get("/apis/lens.kplane.io/v1").json();
        assertThat(resources.toString())
                .contains("\"name\":\"syncrecords\"")
                .contains("\"kind\":\"SyncRecord\"")
                .contains("\"namespaced\":true");
        assertThat(http.get("/apis").body()).contains("lens.kplane.io");

        Http.Response created = http.post(PATH, record("pi.job.job", 2));
        assertThat(created.code()).as(created.body()).isEqualTo(201);
        JsonNode back = http.get(PATH + "/pi.job.job").json();
        assertThat(back.at("/records/1/saw/active").asInt()).isEqualTo(1);
        assertThat(back.at("/records/0/triggers/0/rv").asText()).isEqualTo("5");
        assertThat(back.at("/target/uid").asText()).isEqualTo("u-1");

        Http.Response tooMany = http.post(PATH, record("too.many", 11));
        assertThat(tooMany.code()).isEqualTo(422);
        assertThat(tooMany.json().at("/details/causes/0/field").asText()).isEqualTo("records");
        Http.Response noTarget = http.post(PATH, "{\"metadata\":{\"name\":\"x\"},\"controller\":\"job\"}");
        assertThat(noTarget.code()).isEqualTo(422);
        assertThat(noTarget.json().at("/details/causes/0/field").asText()).isEqualTo("target");

        JsonNode table = http.get(PATH, TABLE).json();
        assertThat(table.at("/columnDefinitions").toString())
                .contains("Last Decision")
                .contains("Controller");
        assertThat(table.at("/rows/0/cells").toString())
                .contains("pi.job.job")
                .contains("Job/pi")
                .contains("pods_created");
    }
}
