package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.apiserver.admission.Admission;
import io.kplane.apiserver.admission.AdmissionChain;
import io.kplane.apiserver.codec.MediaType;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.errors.Errors;
import io.kplane.apiserver.render.RenderRequest;
import io.kplane.apiserver.render.ResponseRenderer;
import io.kplane.apiserver.testing.TestApiServer;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A bug in the server is a logged 500 InternalError: never a 400 with the JVM's message, never a 503
 * that tells clients to retry forever, never a request left hanging.
 */
class InternalErrorsTest {
    /** Admission that fails like a bug (not with an ApiError) on objects labelled {@code explode}. */
    static final class BuggyAdmission implements Admission {
        private final Admission standard = AdmissionChain.standard();

        @Override
        public ObjectNode admit(ResourceType type, ObjectNode object, ObjectNode old) throws ApiError {
            if (old != null && object.at("/metadata/labels/explode").isTextual()) {
                throw new IllegalStateException("simulated bug in admission");
            }
            return standard.admit(type, object, old);
        }
    }

    /** A renderer whose object rendering fails like a bug. */
    static final class BuggyRenderer implements ResponseRenderer {
        @Override
        public boolean accepts(MediaType alternative) {
            return alternative.is("application/vnd.kplane.test-buggy");
        }

        @Override
        public JsonNode renderObject(RenderRequest request, ObjectNode object) {
            throw new NullPointerException("simulated bug in a renderer");
        }

        @Override
        public JsonNode renderList(RenderRequest request, ObjectNode list) {
            throw new NullPointerException("simulated bug in a renderer");
        }

        @Override
        public JsonNode renderWatchObject(RenderRequest request, ObjectNode object, boolean first) {
            return object;
        }
    }

    static TestApiServer api;
    static Http http;
    final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeAll
    static void start() {
        api = TestApiServer.start(o -> o.admission(new BuggyAdmission()).addRenderer(new BuggyRenderer()));
        http = new Http(api.url());
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    @BeforeEach
    void captureErrorsLog() {
        log.start();
        ((Logger) LoggerFactory.getLogger(Errors.class)).addAppender(log);
    }

    static String pod(String name, String labels) {
        return """
                {"metadata":{"name":"%s","labels":{%s}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}
                """
                .formatted(name, labels);
    }

    private void assertLoggedWithStackTrace(String message) {
        assertThat(log.list).anySatisfy(e -> {
            assertThat(e.getLevel().toString()).isEqualTo("ERROR");
            assertThat(e.getThrowableProxy()).isNotNull();
            assertThat(e.getThrowableProxy().getMessage()).isEqualTo(message);
            assertThat(e.getThrowableProxy().getStackTraceElementProxyArray()).isNotEmpty();
        });
    }

    @Test
    void aBugDuringUpdateIsALogged500NotA400() {
        assertThat(http.post("/api/v1/namespaces/default/pods", pod("u1", "")).code())
                .isEqualTo(201);
        Http.Response put = http.put("/api/v1/namespaces/default/pods/u1", pod("u1", "\"explode\":\"yes\""));
        assertThat(put.code()).isEqualTo(500);
        assertThat(put.json().get("reason").asText()).isEqualTo("InternalError");
        assertThat(put.json().get("kind").asText()).isEqualTo("Status");
        assertLoggedWithStackTrace("simulated bug in admission");

        log.list.clear();
        Http.Response patch = http.patch(
                "/api/v1/namespaces/default/pods/u1",
                "{\"metadata\":{\"labels\":{\"explode\":\"yes\"}}}",
                "application/merge-patch+json");
        assertThat(patch.code()).isEqualTo(500);
        assertThat(patch.json().get("reason").asText()).isEqualTo("InternalError");
        assertLoggedWithStackTrace("simulated bug in admission");

        // the object is unchanged and the server still serves
        assertThat(http.get("/api/v1/namespaces/default/pods/u1")
                        .json()
                        .at("/metadata/labels/explode")
                        .isMissingNode())
                .isTrue();
    }

    @Test
    void aBugWhileRenderingAResultEndsTheRequestWithALogged500() {
        assertThat(http.post("/api/v1/namespaces/default/pods", pod("r1", "")).code())
                .isEqualTo(201);
        Http.Response get = http.get("/api/v1/namespaces/default/pods/r1", "application/vnd.kplane.test-buggy");
        assertThat(get.code()).isEqualTo(500);
        assertThat(get.json().get("reason").asText()).isEqualTo("InternalError");
        assertLoggedWithStackTrace("simulated bug in a renderer");
        Http.Response list = http.get("/api/v1/namespaces/default/pods", "application/vnd.kplane.test-buggy");
        assertThat(list.code()).isEqualTo(500);
    }

    @Test
    void aStatementTheDatabaseRejectsIsA500NotAnOutage() throws Exception {
        assertThat(http.post("/api/v1/namespaces/default/pods", pod("s1", "")).code())
                .isEqualTo(201);
        Vertx vertx = Vertx.vertx();
        try {
            PgConnection conn = PgConnection.connect(vertx, api.database()).await(30, TimeUnit.SECONDS);
            // a damaged schema: the store's statements now fail with 42P01 (undefined table), a
            // failure that no retry can fix
            conn.query("ALTER TABLE objects RENAME TO objects_moved").execute().await(30, TimeUnit.SECONDS);
            try {
                Http.Response read = http.get("/api/v1/namespaces/default/pods/s1");
                assertThat(read.code()).isEqualTo(500);
                assertThat(read.json().get("reason").asText()).isEqualTo("InternalError");
                Http.Response write = http.post("/api/v1/namespaces/default/pods", pod("s2", ""));
                assertThat(write.code()).isEqualTo(500);
                assertThat(write.json().get("reason").asText()).isEqualTo("InternalError");
                assertThat(log.list)
                        .anySatisfy(e -> assertThat(e.getThrowableProxy()).isNotNull());
            } finally {
                conn.query("ALTER TABLE objects_moved RENAME TO objects")
                        .execute()
                        .await(30, TimeUnit.SECONDS);
                conn.close();
            }
            assertThat(http.post("/api/v1/namespaces/default/pods", pod("s3", ""))
                            .code())
                    .isEqualTo(201);
        } finally {
            vertx.close().await(30, TimeUnit.SECONDS);
        }
    }
}
