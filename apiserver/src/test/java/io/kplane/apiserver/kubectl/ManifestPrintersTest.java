package io.kplane.apiserver.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cells kubectl 1.32's printers compute for the kinds manifests bring along. */
class ManifestPrintersTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final String META =
            "'metadata':{'name':'x','namespace':'ns','creationTimestamp':'2026-01-01T11:59:00Z'}";

    private static List<Object> cells(String kind, String object) {
        try {
            JsonNode json = Json.mapper().readTree(object.replace('\'', '"'));
            return Printers.forKind(kind).cells(json, NOW);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void configMapsCountBothBags() {
        assertThat(cells("ConfigMap", "{" + META + ",'data':{'a':'1'},'binaryData':{'b':'AA=='}}"))
                .containsExactly("x", 2L, "60s");
    }

    @Test
    void secretsShowTypeAndKeys() {
        assertThat(cells("Secret", "{" + META + ",'type':'kubernetes.io/tls','data':{'tls.crt':'','tls.key':''}}"))
                .containsExactly("x", "kubernetes.io/tls", 2L, "60s");
    }

    @Test
    void claimsShowCapacityAndModesOnlyOnceBound() {
        assertThat(
                        cells(
                                "PersistentVolumeClaim",
                                "{" + META + ",'spec':{'accessModes':['ReadWriteOnce'],"
                                        + "'resources':{'requests':{'storage':'1Gi'}},'volumeMode':'Filesystem'},'status':{'phase':'Pending'}}"))
                .containsExactly("x", "Pending", "", "", "", "", "<unset>", "60s", "Filesystem");
        assertThat(cells(
                        "PersistentVolumeClaim",
                        "{" + META + ",'spec':{'accessModes':['ReadWriteOnce'],"
                                + "'volumeName':'pvc-1','storageClassName':'local-path'},'status':{'phase':'Bound',"
                                + "'accessModes':['ReadWriteMany','ReadWriteOnce'],'capacity':{'storage':'1Gi'}}}"))
                .containsExactly("x", "Bound", "pvc-1", "1Gi", "RWO,RWX", "local-path", "<unset>", "60s", "<unset>");
    }

    @Test
    void volumesShowTheirClaim() {
        assertThat(cells(
                        "PersistentVolume",
                        "{'metadata':{'name':'pv','creationTimestamp':'2026-01-01T11:00:00Z',"
                                + "'deletionTimestamp':'2026-01-01T11:59:00Z'},'spec':{'capacity':{'storage':'2Gi'},"
                                + "'accessModes':['ReadWriteOncePod'],'persistentVolumeReclaimPolicy':'Delete',"
                                + "'claimRef':{'namespace':'ns','name':'data'}},'status':{'phase':'Bound'}}"))
                .containsExactly(
                        "pv", "2Gi", "RWOP", "Delete", "Terminating", "ns/data", "", "<unset>", "", "60m", "<unset>");
    }

    @Test
    void rolesAndBindings() {
        assertThat(cells("Role", "{" + META + "}")).containsExactly("x", "2026-01-01T11:59:00Z");
        assertThat(
                        cells(
                                "ClusterRoleBinding",
                                "{" + META + ",'roleRef':{'kind':'ClusterRole','name':'view'},"
                                        + "'subjects':[{'kind':'User','name':'jane'},{'kind':'Group','name':'devs'},"
                                        + "{'kind':'ServiceAccount','name':'sa','namespace':'ns'},{'kind':'User','name':'joe'}]}"))
                .containsExactly("x", "ClusterRole/view", "60s", "jane, joe", "devs", "ns/sa");
    }
}
