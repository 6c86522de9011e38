package io.kplane.api.core;

/**
 * A pod volume: a name and one source. The pod keeps its volumes as JSON (so that every source
 * round-trips); this typed view holds the sources the kubelet-sim can set up. A volume whose source is
 * none of these (nfs, csi, ...) reads back with every source null.
 */
public record Volume(
        String name,
        ConfigMapVolumeSource configMap,
        SecretVolumeSource secret,
        EmptyDirVolumeSource emptyDir,
        DownwardAPIVolumeSource downwardAPI,
        ProjectedVolumeSource projected,
        PersistentVolumeClaimVolumeSource persistentVolumeClaim,
        HostPathVolumeSource hostPath) {}
