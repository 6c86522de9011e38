package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kinds manifests bring along (ConfigMap, Secret, ServiceAccount, PVC/PV, RBAC) over HTTP: defaulting,
 * Kubernetes' validation messages and causes, the default ServiceAccount and pod admission.
 */
class ManifestKindsTest extends ApiServerHttpTest {
    private static final String CM = "/api/v1/namespaces/default/configmaps";
    private static final String SECRETS = "/api/v1/namespaces/default/secrets";

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> causeFields(Http.Response r) {
        return r.json().at("/details/causes").findValuesAsText("field");
    }

    @Test
    void configMapKeysAndImmutability() {
        Http.Response ok = http.post(
                CM,
                """
                {"metadata":{"name":"script"},"data":{"run.sh":"echo hi"},"binaryData":{"blob":"AAEC"},"immutable":true}""");
        assertThat(ok.code()).as(ok.body()).isEqualTo(201);

        Http.Response badKey =
                http.post(CM, "{\"metadata\":{\"name\":\"bad\"},\"data\":{\"a b\":\"x\",\"..x\":\"y\"}}");
        assertThat(badKey.code()).isEqualTo(422);
        assertThat(badKey.json().path("message").asText())
                .isEqualTo("ConfigMap \"bad\" is invalid: ["
                        + "data[..x]: Invalid value: \"..x\": must not start with '..', "
                        + "data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', "
                        + "'_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key_name', regex used for validation is "
                        + "'[-._a-zA-Z0-9]+')]");
        assertThat(causeFields(badKey)).containsExactly("data[..x]", "data[a b]");

        JsonNode stored = ok.json();
        ((com.fasterxml.jackson.databind.node.ObjectNode) stored.get("data")).put("run.sh", "echo changed");
        Http.Response changed = http.put(CM + "/script", stored.toString());
        assertThat(changed.code()).isEqualTo(422);
        assertThat(changed.json().path("message").asText())
                .isEqualTo(
                        "ConfigMap \"script\" is invalid: data: Forbidden: field is immutable when `immutable` is set");
        assertThat(causeFields(changed)).containsExactly("data");
    }

    @Test
    void secretStringDataIsMergedAndNeverStored() {
        Http.Response r = http.post(
                SECRETS,
                """
                {"metadata":{"name":"creds"},"data":{"user":"%s"},"stringData":{"password":"s3cret","user":"admin"}}"""
                        .formatted(b64("ignored")));
        assertThat(r.code()).as(r.body()).isEqualTo(201);
        assertThat(r.json().path("type").asText()).isEqualTo("Opaque");
        assertThat(r.json().has("stringData")).isFalse();
        assertThat(r.json().at("/data/password").asText()).isEqualTo(b64("s3cret"));
        assertThat(r.json().at("/data/user").asText()).isEqualTo(b64("admin"));
        JsonNode read = http.get(SECRETS + "/creds").json();
        assertThat(read.has("stringData")).isFalse();
        assertThat(read.at("/data/password").asText()).isEqualTo(b64("s3cret"));
    }

    @Test
    void secretBadBase64IsTheDecodingError() {
        Http.Response r = http.post(SECRETS, "{\"metadata\":{\"name\":\"b64\"},\"data\":{\"k\":\"not*base64\"}}");
        assertThat(r.code()).isEqualTo(400);
        assertThat(r.json().path("reason").asText()).isEqualTo("BadRequest");
        assertThat(r.json().path("message").asText())
                .isEqualTo(
                        "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 3");
    }

    @Test
    void secretTypesRequireTheirKeys() {
        Http.Response tls = http.post(
                SECRETS,
                """
                {"metadata":{"name":"tls"},"type":"kubernetes.io/tls","data":{"tls.crt":"%s"}}"""
                        .formatted(b64("c")));
        assertThat(tls.code()).isEqualTo(422);
        assertThat(tls.json().path("message").asText())
                .isEqualTo("Secret \"tls\" is invalid: data[tls.key]: Required value");
        Http.Response basic =
                http.post(SECRETS, "{\"metadata\":{\"name\":\"basic\"},\"type\":\"kubernetes.io/basic-auth\"}");
        assertThat(causeFields(basic)).containsExactly("data[username]", "data[password]");
        Http.Response docker = http.post(
                SECRETS,
                """
                {"metadata":{"name":"docker"},"type":"kubernetes.io/dockerconfigjson","stringData":{".dockerconfigjson":"{\\"auths\\":{}}"}}""");
        assertThat(docker.code()).as(docker.body()).isEqualTo(201);
        Http.Response token = http.post(
                SECRETS, "{\"metadata\":{\"name\":\"tok\"},\"type\":\"kubernetes.io/service-account-token\"}");
        assertThat(causeFields(token)).containsExactly("metadata.annotations[kubernetes.io/service-account.name]");

        Http.Response immutable = http.post(
                SECRETS, "{\"metadata\":{\"name\":\"frozen\"},\"immutable\":true,\"stringData\":{\"a\":\"1\"}}");
        assertThat(immutable.code()).isEqualTo(201);
        Http.Response patched =
                http.patch(SECRETS + "/frozen", "{\"stringData\":{\"a\":\"2\"}}", "application/merge-patch+json");
        assertThat(patched.code()).isEqualTo(422);
        assertThat(causeFields(patched)).containsExactly("data");
    }

    @Test
    void everyNamespaceHasADefaultServiceAccountAndPodsUseIt() {
        assertThat(http.get("/api/v1/namespaces/default/serviceaccounts/default")
                        .code())
                .isEqualTo(200);
        assertThat(http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"team-a\"}}")
                        .code())
                .isEqualTo(201);
        await().until(() ->
                http.get("/api/v1/namespaces/team-a/serviceaccounts/default").code() == 200);

        Http.Response pod = http.post(
                "/api/v1/namespaces/team-a/pods",
                """
                {"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}""");
        assertThat(pod.code()).as(pod.body()).isEqualTo(201);
        assertThat(pod.json().at("/spec/serviceAccountName").asText()).isEqualTo("default");
    }

    @Test
    void aPodNamingAMissingServiceAccountIsForbidden() {
        Http.Response r = http.post(
                "/api/v1/namespaces/default/pods",
                """
                {"metadata":{"generateName":"worker-"},"spec":{"serviceAccountName":"backup",
                 "containers":[{"name":"c","image":"busybox"}]}}""");
        assertThat(r.code()).isEqualTo(403);
        assertThat(r.json().path("reason").asText()).isEqualTo("Forbidden");
        assertThat(r.json().path("message").asText())
                .isEqualTo("pods \"worker-\" is forbidden: error looking up "
                        + "service account default/backup: serviceaccount \"backup\" not found");

        assertThat(http.post("/api/v1/namespaces/default/serviceaccounts", "{\"metadata\":{\"name\":\"backup\"}}")
                        .code())
                .isEqualTo(201);
        Http.Response again = http.post(
                "/api/v1/namespaces/default/pods",
                """
                {"metadata":{"generateName":"worker-"},"spec":{"serviceAccountName":"backup",
                 "automountServiceAccountToken":false,"containers":[{"name":"c","image":"busybox"}]}}""");
        assertThat(again.code()).as(again.body()).isEqualTo(201);
        assertThat(again.json().at("/spec/automountServiceAccountToken").asBoolean(true))
                .isFalse();
    }

    @Test
    void claimsAndVolumesAreDefaultedAndValidated() {
        Http.Response pvc = http.post(
                "/api/v1/namespaces/default/persistentvolumeclaims",
                """
                {"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],
                 "resources":{"requests":{"storage":"1Gi"}}},"status":{"phase":"Bound"}}""");
        assertThat(pvc.code()).as(pvc.body()).isEqualTo(201);
        assertThat(pvc.json().at("/status/phase").asText()).isEqualTo("Pending");
        assertThat(pvc.json().at("/spec/volumeMode").asText()).isEqualTo("Filesystem");

        Http.Response bad = http.post(
                "/api/v1/namespaces/default/persistentvolumeclaims", "{\"metadata\":{\"name\":\"bad\"},\"spec\":{}}");
        assertThat(bad.code()).isEqualTo(422);
        assertThat(causeFields(bad)).containsExactly("spec.accessModes", "spec.resources[storage]");

        Http.Response resized = http.patch(
                "/api/v1/namespaces/default/persistentvolumeclaims/data",
                "{\"spec\":{\"accessModes\":[\"ReadWriteMany\"]}}",
                "application/merge-patch+json");
        assertThat(resized.code()).isEqualTo(422);
        assertThat(causeFields(resized)).containsExactly("spec");

        Http.Response pv = http.post(
                "/api/v1/persistentvolumes",
                """
                {"metadata":{"name":"manual"},"spec":{"capacity":{"storage":"2Gi"},"accessModes":["ReadWriteOnce"],
                 "hostPath":{"path":"/tmp/manual"}}}""");
        assertThat(pv.code()).as(pv.body()).isEqualTo(201);
        assertThat(pv.json().at("/spec/persistentVolumeReclaimPolicy").asText()).isEqualTo("Retain");
        assertThat(pv.json().at("/status/phase").asText()).isEqualTo("Pending");
        Http.Response noSource = http.post(
                "/api/v1/persistentvolumes",
                """
                {"metadata":{"name":"nosource"},"spec":{"capacity":{"storage":"2Gi"},"accessModes":["ReadWriteOnce"]}}""");
        assertThat(causeFields(noSource)).containsExactly("spec");
    }

    @Test
    void rbacObjectsAreValidatedAndRoleRefIsImmutable() {
        Http.Response role = http.post(
                "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
                """
                {"metadata":{"name":"reader"},"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get","list"]}]}""");
        assertThat(role.code()).as(role.body()).isEqualTo(201);
        Http.Response badRole = http.post(
                "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
                """
                {"metadata":{"name":"bad"},"rules":[{"apiGroups":[""],"resources":["pods"]}]}""");
        assertThat(badRole.json().path("message").asText())
                .isEqualTo(
                        "Role.rbac.authorization.k8s.io \"bad\" is invalid: rules[0].verbs: Required value: verbs must contain at least one value");

        String binding =
                """
                {"metadata":{"name":"read"},"roleRef":{"kind":"%s","name":"reader"},
                 "subjects":[{"kind":"ServiceAccount","name":"default","namespace":"default"},{"kind":"User","name":"jane"}]}""";
        Http.Response rb = http.post(
                "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", binding.formatted("Role"));
        assertThat(rb.code()).as(rb.body()).isEqualTo(201);
        assertThat(rb.json().at("/roleRef/apiGroup").asText()).isEqualTo("rbac.authorization.k8s.io");
        assertThat(rb.json().at("/subjects/1/apiGroup").asText()).isEqualTo("rbac.authorization.k8s.io");
        Http.Response changed = http.patch(
                "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/read",
                "{\"roleRef\":{\"kind\":\"ClusterRole\"}}",
                "application/merge-patch+json");
        assertThat(changed.code()).isEqualTo(422);
        assertThat(causeFields(changed)).containsExactly("roleRef");

        Http.Response crb = http.post(
                "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
                """
                {"metadata":{"name":"x"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"},
                 "subjects":[{"kind":"ServiceAccount","name":"default"}]}""");
        assertThat(causeFields(crb)).containsExactly("roleRef.kind", "subjects[0].namespace");
    }

    @Test
    void tablesHaveKubectlsColumns() {
        String table = "application/json;as=Table;v=v1;g=meta.k8s.io";
        http.post(CM, "{\"metadata\":{\"name\":\"cols\"},\"data\":{\"a\":\"1\",\"b\":\"2\"}}");
        JsonNode cm = http.get(CM + "/cols", table).json();
        assertThat(cm.get("columnDefinitions").findValuesAsText("name")).containsExactly("Name", "Data", "Age");
        assertThat(cm.at("/rows/0/cells/1").asInt()).isEqualTo(2);
        JsonNode pvcs = http.get("/api/v1/namespaces/default/persistentvolumeclaims", table)
                .json();
        assertThat(pvcs.get("columnDefinitions").findValuesAsText("name"))
                .containsExactly(
                        "Name",
                        "Status",
                        "Volume",
                        "Capacity",
                        "Access Modes",
                        "StorageClass",
                        "VolumeAttributesClass",
                        "Age",
                        "VolumeMode");
        JsonNode sas =
                http.get("/api/v1/namespaces/default/serviceaccounts", table).json();
        assertThat(sas.get("columnDefinitions").findValuesAsText("name")).containsExactly("Name", "Secrets", "Age");
    }
}
