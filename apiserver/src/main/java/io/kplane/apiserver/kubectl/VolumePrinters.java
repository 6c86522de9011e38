package io.kplane.apiserver.kubectl;

import static io.kplane.apiserver.kubectl.ConfigPrinters.age;
import static io.kplane.apiserver.kubectl.ObjectFields.at;
import static io.kplane.apiserver.kubectl.ObjectFields.text;
import static io.kplane.apiserver.kubectl.ObjectFields.textOr;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** PersistentVolumeClaims and PersistentVolumes, with kubectl 1.32's columns and cell rules. */
final class VolumePrinters {
    private static final String UNSET = "<unset>";

    private VolumePrinters() {}

    /** {@code helper.GetAccessModesAsString}: RWO,ROX,RWX,RWOP in that order, each once. */
    static String accessModes(JsonNode modes) {
        List<String> out = new ArrayList<>();
        List<String> given = new ArrayList<>();
        modes.forEach(m -> given.add(m.asText()));
        String[][] table = {
            {"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}
        };
        for (String[] row : table) {
            if (given.contains(row[0])) {
                out.add(row[1]);
            }
        }
        return String.join(",", out);
    }

    /** The storage class: the beta annotation wins over the field, as {@code GetPersistentVolume(Claim)Class}. */
    static String storageClass(JsonNode obj) {
        JsonNode annotation = at(obj, "metadata.annotations").path("volume.beta.kubernetes.io/storage-class");
        return annotation.isTextual() ? annotation.asText() : text(obj, "spec.storageClassName");
    }

    private static String phase(JsonNode obj) {
        return text(obj, "metadata.deletionTimestamp").isEmpty() ? text(obj, "status.phase") : "Terminating";
    }

    static final class ClaimPrinter implements ResourcePrinter {
        private static final List<TableColumn> COLUMNS = List.of(
                TableColumn.nameColumn(),
                TableColumn.of("Status", "phase represents the current phase of PersistentVolumeClaim."),
                TableColumn.of(
                        "Volume",
                        "volumeName is the binding reference to the PersistentVolume backing this " + "claim."),
                TableColumn.of("Capacity", "capacity represents the actual resources of the underlying volume."),
                TableColumn.of(
                        "Access Modes",
                        "accessModes contains the actual access modes the volume backing the "
                                + "PVC has. More info: "
                                + "https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1"),
                TableColumn.of("StorageClass", "StorageClass of the pvc"),
                TableColumn.of("VolumeAttributesClass", "VolumeAttributesClass of the pvc"),
                TableColumn.ageColumn(),
                TableColumn.wide(
                        "VolumeMode",
                        "volumeMode defines what type of volume is required by the claim. "
                                + "Value of Filesystem is implied when not included in claim spec."));

        @Override
        public List<TableColumn> columns() {
            return COLUMNS;
        }

        @Override
        public List<Object> cells(JsonNode pvc, Instant now) {
            String volume = text(pvc, "spec.volumeName");
            String capacity = "";
            String modes = "";
            if (!volume.isEmpty()) {
                modes = accessModes(at(pvc, "status.accessModes"));
                capacity = text(pvc, "status.capacity.storage");
            }
            String vac = textOr(pvc, "spec.volumeAttributesClassName", "");
            return List.of(
                    text(pvc, "metadata.name"),
                    phase(pvc),
                    volume,
                    capacity,
                    modes,
                    storageClass(pvc),
                    vac.isEmpty() ? UNSET : vac,
                    age(pvc, now),
                    textOr(pvc, "spec.volumeMode", UNSET));
        }
    }

    static final class VolumePrinter implements ResourcePrinter {
        private static final List<TableColumn> COLUMNS = List.of(
                TableColumn.nameColumn(),
                TableColumn.of(
                        "Capacity",
                        "capacity is the description of the persistent volume's resources and "
                                + "capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity"),
                TableColumn.of(
                        "Access Modes",
                        "accessModes contains all ways the volume can be mounted. More info: "
                                + "https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes"),
                TableColumn.of(
                        "Reclaim Policy",
                        "persistentVolumeReclaimPolicy defines what happens to a persistent "
                                + "volume when released from its claim. Valid options are Retain (default for manually created "
                                + "PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and "
                                + "Recycle (deprecated). Recycle must be supported by the volume plugin underlying this "
                                + "PersistentVolume. More info: "
                                + "https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming"),
                TableColumn.of(
                        "Status",
                        "phase indicates if a volume is available, bound to a claim, or released by "
                                + "a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase"),
                TableColumn.of(
                        "Claim",
                        "claimRef is part of a bi-directional binding between PersistentVolume and "
                                + "PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the "
                                + "authoritative bind between PV and PVC. More info: "
                                + "https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding"),
                TableColumn.of("StorageClass", "StorageClass of the pv"),
                TableColumn.of("VolumeAttributesClass", "VolumeAttributesClass of the pv"),
                TableColumn.of(
                        "Reason",
                        "reason is a brief CamelCase string that describes any failure and is meant "
                                + "for machine parsing and tidy display in the CLI."),
                TableColumn.ageColumn(),
                TableColumn.wide(
                        "VolumeMode",
                        "volumeMode defines if a volume is intended to be used with a "
                                + "formatted filesystem or to remain in raw block state. Value of Filesystem is implied when "
                                + "not included in spec."));

        @Override
        public List<TableColumn> columns() {
            return COLUMNS;
        }

        @Override
        public List<Object> cells(JsonNode pv, Instant now) {
            String claim = "";
            JsonNode ref = at(pv, "spec.claimRef");
            if (ref.isObject()) {
                claim = ref.path("namespace").asText("") + "/"
                        + ref.path("name").asText("");
            }
            String vac = textOr(pv, "spec.volumeAttributesClassName", "");
            return List.of(
                    text(pv, "metadata.name"),
                    text(pv, "spec.capacity.storage"),
                    accessModes(at(pv, "spec.accessModes")),
                    text(pv, "spec.persistentVolumeReclaimPolicy"),
                    phase(pv),
                    claim,
                    storageClass(pv),
                    vac.isEmpty() ? UNSET : vac,
                    text(pv, "status.reason"),
                    age(pv, now),
                    textOr(pv, "spec.volumeMode", UNSET));
        }
    }
}
