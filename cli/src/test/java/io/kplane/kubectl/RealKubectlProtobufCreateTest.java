package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.apiserver.testing.TestApiServer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kubectl 1.32's typed {@code create} commands POST {@code application/vnd.kubernetes.protobuf} (no JSON
 * fallback); each must create exactly the object kubectl meant. {@code -v=8} shows the request's
 * Content-Type, so each test also proves the body really was protobuf.
 */
class RealKubectlProtobufCreateTest {
    private static final String PROTOBUF = "Content-Type: application/vnd.kubernetes.protobuf";
    private static TestApiServer server;
    private static RealKubectl kubectl;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(RealKubectl.installed(), "kubectl is not installed at " + RealKubectl.BINARY);
        server = TestApiServer.start();
        kubectl = new RealKubectl(server.url());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static RealKubectl.Result createVerbose(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "create";
        System.arraycopy(args, 0, all, 1, args.length);
        all[all.length - 1] = "-v=8";
        RealKubectl.Result r = kubectl.run(all);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains(PROTOBUF);
        return r;
    }

    private static JsonNode stored(String... getArgs) throws Exception {
        String[] all = new String[getArgs.length + 3];
        all[0] = "get";
        System.arraycopy(getArgs, 0, all, 1, getArgs.length);
        all[all.length - 2] = "-o";
        all[all.length - 1] = "json";
        RealKubectl.Result r = kubectl.run(all);
        assertThat(r.code()).as(r.err()).isZero();
        return Json.mapper().readTree(r.out());
    }

    @Test
    void createConfigMapFromLiteral() throws Exception {
        RealKubectl.Result r = createVerbose("configmap", "pb-cm", "--from-literal=a=b", "--from-literal=empty=");
        assertThat(r.out()).isEqualTo("configmap/pb-cm created\n");
        JsonNode cm = stored("configmap", "pb-cm");
        assertThat(cm.path("data").path("a").asText()).isEqualTo("b");
        assertThat(cm.path("data").has("empty")).isTrue();
        assertThat(cm.path("data").path("empty").asText()).isEmpty();
        assertThat(cm.path("metadata").path("namespace").asText()).isEqualTo("default");
        assertThat(cm.has("binaryData")).isFalse();
    }

    @Test
    void createGenericSecretKeepsBytesAndType() throws Exception {
        RealKubectl.Result r = createVerbose("secret", "generic", "pb-secret", "--from-literal=password=s3cr=t");
        assertThat(r.out()).isEqualTo("secret/pb-secret created\n");
        JsonNode secret = stored("secret", "pb-secret");
        assertThat(secret.path("type").asText()).isEqualTo("Opaque");
        String encoded = secret.path("data").path("password").asText();
        assertThat(new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8))
                .isEqualTo("s3cr=t");
    }

    @Test
    void createServiceAccount() throws Exception {
        RealKubectl.Result r = createVerbose("serviceaccount", "pb-robot");
        assertThat(r.out()).isEqualTo("serviceaccount/pb-robot created\n");
        JsonNode sa = stored("serviceaccount", "pb-robot");
        assertThat(sa.path("metadata").path("name").asText()).isEqualTo("pb-robot");
        assertThat(sa.path("metadata").path("uid").asText()).isNotEmpty();
    }

    @Test
    void createNamespace() throws Exception {
        RealKubectl.Result r = createVerbose("namespace", "pb-team");
        assertThat(r.out()).isEqualTo("namespace/pb-team created\n");
        JsonNode ns = stored("namespace", "pb-team");
        assertThat(ns.path("status").path("phase").asText()).isEqualTo("Active");
        assertThat(ns.path("spec").path("finalizers").get(0).asText()).isEqualTo("kubernetes");
    }

    @Test
    void createRoleAndRoleBinding() throws Exception {
        createVerbose("role", "pb-reader", "--verb=get,list", "--resource=pods");
        JsonNode role = stored("role", "pb-reader");
        assertThat(role.path("rules").get(0).path("verbs").toString()).isEqualTo("[\"get\",\"list\"]");
        assertThat(role.path("rules").get(0).path("resources").toString()).isEqualTo("[\"pods\"]");
        createVerbose("rolebinding", "pb-read", "--role=pb-reader", "--serviceaccount=default:pb-robot");
        JsonNode binding = stored("rolebinding", "pb-read");
        assertThat(binding.path("roleRef").path("name").asText()).isEqualTo("pb-reader");
        assertThat(binding.path("subjects").get(0).path("kind").asText()).isEqualTo("ServiceAccount");
    }
}
