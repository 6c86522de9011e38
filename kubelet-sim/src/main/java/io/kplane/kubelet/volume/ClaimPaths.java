package io.kplane.kubelet.volume;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.kubelet.config.ConfigObjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The node directory of a PersistentVolumeClaim: the claim must be Bound to a PersistentVolume whose
 * {@code hostPath.path} or {@code local.path} is that directory (what a local-path provisioner creates).
 * Messages follow the kubelet's volume manager.
 */
final class ClaimPaths {
    private final ConfigObjects objects;

    ClaimPaths(ConfigObjects objects) {
        this.objects = objects;
    }

    Path resolve(String namespace, String claimName) throws VolumeSetupException {
        Optional<JsonNode> claim = objects.persistentVolumeClaim(namespace, claimName);
        if (claim.isEmpty()) {
            throw new VolumeSetupException("error processing PVC " + namespace + "/" + claimName
                    + ": failed to fetch PVC from API server: persistentvolumeclaims \"" + claimName + "\" not found");
        }
        String phase = claim.get().path("status").path("phase").asText("");
        String volumeName = claim.get().path("spec").path("volumeName").asText("");
        if (!"Bound".equals(phase) || volumeName.isEmpty()) {
            throw new VolumeSetupException("PVC " + namespace + "/" + claimName + " has non-bound phase (\"" + phase
                    + "\") or empty pvc.Spec.VolumeName (\"" + volumeName + "\")");
        }
        Optional<JsonNode> pv = objects.persistentVolume(volumeName);
        if (pv.isEmpty()) {
            throw new VolumeSetupException("error processing PVC " + namespace + "/" + claimName
                    + ": failed to fetch PV " + volumeName + " from API server: persistentvolumes \"" + volumeName
                    + "\" not found");
        }
        JsonNode spec = pv.get().path("spec");
        String path = spec.path("hostPath")
                .path("path")
                .asText(spec.path("local").path("path").asText(""));
        if (path.isEmpty()) {
            throw new VolumeSetupException("PersistentVolume " + volumeName + " has no hostPath or local path: "
                    + "kplane mounts only node directories");
        }
        Path dir = Path.of(path);
        if (!Files.isDirectory(dir)) {
            throw new VolumeSetupException(
                    "path " + dir + " of PersistentVolume " + volumeName + " does not exist on node");
        }
        return dir;
    }
}
