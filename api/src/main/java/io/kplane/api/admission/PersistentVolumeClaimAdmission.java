package io.kplane.api.admission;

import io.kplane.api.core.PersistentVolumeClaim;
import io.kplane.api.core.PersistentVolumeClaimSpec;
import io.kplane.api.core.PersistentVolumeClaimStatus;
import io.kplane.api.core.PersistentVolumeClaimStatusBuilder;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * PersistentVolumeClaims ({@code ValidatePersistentVolumeClaim(Update)}): access modes, a positive
 * storage request, volumeMode; the spec is immutable after creation except the storage request and
 * binding ({@code volumeName} while unset). Defaults volumeMode Filesystem and phase Pending.
 */
public final class PersistentVolumeClaimAdmission extends TypedAdmission<PersistentVolumeClaim> {
    static final List<String> ACCESS_MODES =
            List.of("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod");
    static final List<String> VOLUME_MODES = List.of("Block", "Filesystem");

    public PersistentVolumeClaimAdmission() {
        super(PersistentVolumeClaim.class, true, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    PersistentVolumeClaim applyDefaults(PersistentVolumeClaim pvc) {
        PersistentVolumeClaim out = pvc;
        if (out.spec() != null && out.spec().volumeMode() == null) {
            out = out.withSpec(out.spec().withVolumeMode("Filesystem"));
        }
        if (out.status() == null
                || out.status().phase() == null
                || out.status().phase().isEmpty()) {
            PersistentVolumeClaimStatus status = out.status() == null
                    ? PersistentVolumeClaimStatusBuilder.builder().build()
                    : out.status();
            out = out.withStatus(status.withPhase("Pending"));
        }
        return out;
    }

    @Override
    void validateSpec(PersistentVolumeClaim pvc, FieldErrors errs) {
        PersistentVolumeClaimSpec spec = pvc.spec();
        List<String> modes = spec == null || spec.accessModes() == null ? List.of() : spec.accessModes();
        if (modes.isEmpty()) {
            errs.add(FieldError.required("spec.accessModes", "at least 1 access mode is required"));
        }
        for (String mode : modes) {
            if (!ACCESS_MODES.contains(mode)) {
                errs.add(FieldError.notSupported("spec.accessModes", mode, ACCESS_MODES));
            }
        }
        if (modes.contains("ReadWriteOncePod") && modes.size() > 1) {
            errs.add(FieldError.forbidden("spec.accessModes", "may not use ReadWriteOncePod with other access modes"));
        }
        Map<String, String> requests =
                spec == null || spec.resources() == null || spec.resources().requests() == null
                        ? Map.of()
                        : spec.resources().requests();
        String storage = requests.get("storage");
        if (storage == null) {
            errs.add(FieldError.required("spec.resources[storage]", ""));
        } else {
            BigDecimal bytes = StorageQuantities.parse(storage);
            if (bytes == null) {
                errs.add(FieldError.invalid(
                        "spec.resources.requests[storage]",
                        storage,
                        "quantities must match the regular expression "
                                + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
            } else if (bytes.signum() <= 0) {
                errs.add(FieldError.invalid("spec.resources.requests[storage]", storage, "must be greater than zero"));
            }
        }
        if (spec != null && spec.volumeMode() != null && !VOLUME_MODES.contains(spec.volumeMode())) {
            errs.add(FieldError.notSupported("spec.volumeMode", spec.volumeMode(), VOLUME_MODES));
        }
        if (spec != null
                && spec.storageClassName() != null
                && !spec.storageClassName().isEmpty()) {
            errs.invalidEach(
                    "spec.storageClassName",
                    spec.storageClassName(),
                    NameRules.dns1123Subdomain(spec.storageClassName()));
        }
    }

    @Override
    void validateSpecUpdate(PersistentVolumeClaim newPvc, PersistentVolumeClaim oldPvc, FieldErrors errs) {
        validateSpec(newPvc, errs);
        PersistentVolumeClaimSpec n = newPvc.spec();
        PersistentVolumeClaimSpec o = oldPvc.spec();
        if (n == null || o == null) {
            return;
        }
        PersistentVolumeClaimSpec comparable = n.withResources(o.resources());
        if (o.volumeName() == null || o.volumeName().isEmpty()) {
            comparable = comparable.withVolumeName(o.volumeName());
        }
        if (!Objects.equals(comparable, o)) {
            errs.add(FieldError.forbidden(
                    "spec",
                    "spec is immutable after creation except resources.requests "
                            + "and volumeAttributesClassName for bound claims"));
        }
    }

    @Override
    void validateStatus(PersistentVolumeClaim newPvc, PersistentVolumeClaim oldPvc, FieldErrors errs) {
        String phase = newPvc.status() == null ? null : newPvc.status().phase();
        if (phase != null && !phase.isEmpty()) {
            errs.oneOf("status.phase", phase, List.of("Bound", "Lost", "Pending"));
        }
    }
}
