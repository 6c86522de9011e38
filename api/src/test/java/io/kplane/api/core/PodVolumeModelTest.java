package io.kplane.api.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import org.junit.jupiter.api.Test;

/** The typed views of pod volumes, mounts and env sources parse strictly and write back the same JSON. */
class PodVolumeModelTest {

    private static JsonNode yaml(String text) throws Exception {
        return Json.yamlMapper().readTree(text);
    }

    private static <T> T roundTrip(JsonNode original, Class<T> type) throws Exception {
        T parsed = Json.strictMapper().treeToValue(original, type);
        assertThat(Json.mapper().readTree(Json.write(parsed))).isEqualTo(original);
        return parsed;
    }

    @Test
    void everyVolumeSourceRoundTrips() throws Exception {
        String[] volumes = {
            """
            name: scripts
            configMap: {name: backup-script, defaultMode: 493, optional: false,
                        items: [{key: run.sh, path: run.sh, mode: 365}]}
            """,
            """
            name: creds
            secret: {secretName: backup-creds, defaultMode: 256, optional: true, items: [{key: password, path: pw}]}
            """,
            "name: scratch\nemptyDir: {medium: Memory, sizeLimit: 64Mi}\n",
            """
            name: info
            downwardAPI:
              defaultMode: 420
              items:
              - {path: labels, fieldRef: {fieldPath: metadata.labels}}
              - {path: cpu, resourceFieldRef: {containerName: c, resource: limits.cpu, divisor: 1m}, mode: 256}
            """,
            """
            name: all
            projected:
              defaultMode: 420
              sources:
              - configMap: {name: cm, items: [{key: a, path: a}], optional: true}
              - secret: {name: s}
              - downwardAPI: {items: [{path: name, fieldRef: {apiVersion: v1, fieldPath: metadata.name}}]}
              - serviceAccountToken: {audience: api, expirationSeconds: 3600, path: token}
            """,
            "name: data\npersistentVolumeClaim: {claimName: backup-data, readOnly: false}\n",
            "name: host\nhostPath: {path: /var/log, type: Directory}\n",
        };
        for (String v : volumes) {
            roundTrip(yaml(v), Volume.class);
        }
        Volume cm = Json.strictMapper().treeToValue(yaml(volumes[0]), Volume.class);
        assertThat(cm.configMap().itemsOrEmpty().get(0).mode()).isEqualTo(0555);
        assertThat(cm.configMap().defaultMode()).isEqualTo(0755);
    }

    @Test
    void mountsAndEnvSourcesRoundTrip() throws Exception {
        VolumeMount m =
                roundTrip(yaml("{name: data, mountPath: /data, subPath: out, readOnly: true}"), VolumeMount.class);
        assertThat(m.isReadOnly()).isTrue();
        EnvFromSource from =
                roundTrip(yaml("{prefix: DB_, secretRef: {name: creds, optional: true}}"), EnvFromSource.class);
        assertThat(from.secretRef().isOptional()).isTrue();
        roundTrip(yaml("{configMapRef: {name: settings}}"), EnvFromSource.class);
        roundTrip(yaml("{name: cm, key: k, optional: true}"), ConfigMapKeySelector.class);
        roundTrip(yaml("{name: s, key: k}"), SecretKeySelector.class);
    }

    @Test
    void anUnsupportedSourceReadsBackAsNoSource() throws Exception {
        Volume nfs = Json.mapper().treeToValue(yaml("{name: n, nfs: {server: x, path: /}}"), Volume.class);
        assertThat(nfs.name()).isEqualTo("n");
        assertThat(nfs.configMap()).isNull();
        assertThat(nfs.hostPath()).isNull();
    }
}
