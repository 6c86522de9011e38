package io.kplane.api.admission;

import io.kplane.api.core.PersistentVolume;
import io.kplane.api.core.PersistentVolumeSpec;
import io.kplane.api.core.PersistentVolumeStatus;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * PersistentVolumes ({@code ValidatePersistentVolume}): capacity, access modes, exactly one volume
 * source, reclaim policy. Defaults reclaim policy Retain, volumeMode Filesystem, phase Pending.
 */
public final class PersistentVolumeAdmission extends TypedAdmission<PersistentVolume> {
    static final List<String> RECLAIM_POLICIES = List.of("Delete", "Recycle", "Retain");

    public PersistentVolumeAdmission() {
        super(PersistentVolume.class, false, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    PersistentVolume applyDefaults(PersistentVolume pv) {
        PersistentVolume out = pv;
        if (out.spec() != null) {
            PersistentVolumeSpec spec = out.spec();
            if (spec.persistentVolumeReclaimPolicy() == null
                    || spec.persistentVolumeReclaimPolicy().isEmpty()) {
                spec = spec.withPersistentVolumeReclaimPolicy("Retain");
            }
            if (spec.volumeMode() == null) {
                spec = spec.withVolumeMode("Filesystem");
            }
            out = out.withSpec(spec);
        }
        if (out.status() == null
                || out.status().phase() == null
                || out.status().phase().isEmpty()) {
            PersistentVolumeStatus s = out.status();
            out = out.withStatus(new PersistentVolumeStatus(
                    "Pending",
                    s == null ? null : s.message(),
                    s == null ? null : s.reason(),
                    s == null ? null : s.lastPhaseTransitionTime()));
        }
        return out;
    }

    @Override
    void validateSpec(PersistentVolume pv, FieldErrors errs) {
        PersistentVolumeSpec spec = pv.spec();
        if (spec == null) {
            errs.add(FieldError.required("spec.accessModes", ""));
            errs.add(FieldError.required("spec.capacity", ""));
            errs.add(FieldError.required("spec", "must specify a volume type"));
            return;
        }
        List<String> modes = spec.accessModes() == null ? List.of() : spec.accessModes();
        if (modes.isEmpty()) {
            errs.add(FieldError.required("spec.accessModes", ""));
        }
        for (String mode : modes) {
            if (!PersistentVolumeClaimAdmission.ACCESS_MODES.contains(mode)) {
                errs.add(
                        FieldError.notSupported("spec.accessModes", mode, PersistentVolumeClaimAdmission.ACCESS_MODES));
            }
        }
        Map<String, String> capacity = spec.capacity() == null ? Map.of() : spec.capacity();
        if (capacity.isEmpty()) {
            errs.add(FieldError.required("spec.capacity", ""));
        } else if (!capacity.containsKey("storage") || capacity.size() > 1) {
            errs.add(FieldError.notSupported(
                    "spec.capacity", capacity.keySet().iterator().next(), List.of("storage")));
        } else {
            BigDecimal bytes = StorageQuantities.parse(capacity.get("storage"));
            if (bytes == null || bytes.signum() <= 0) {
                errs.add(FieldError.invalid(
                        "spec.capacity[storage]", capacity.get("storage"), "must be greater than zero"));
            }
        }
        String policy = spec.persistentVolumeReclaimPolicy();
        if (policy != null && !policy.isEmpty() && !RECLAIM_POLICIES.contains(policy)) {
            errs.add(FieldError.notSupported("spec.persistentVolumeReclaimPolicy", policy, RECLAIM_POLICIES));
        }
        int sources = 0;
        if (spec.hostPath() != null) {
            sources++;
            if (spec.hostPath().path() == null || spec.hostPath().path().isEmpty()) {
                errs.add(FieldError.required("spec.hostPath.path", ""));
            }
        }
        if (spec.local() != null) {
            sources++;
            if (spec.local().path() == null || spec.local().path().isEmpty()) {
                errs.add(FieldError.required("spec.local.path", ""));
            }
        }
        sources += spec.nfs() != null ? 1 : 0;
        sources += spec.csi() != null ? 1 : 0;
        if (sources == 0) {
            errs.add(FieldError.required("spec", "must specify a volume type"));
        } else if (sources > 1) {
            errs.add(FieldError.forbidden("spec", "may not specify more than 1 volume type"));
        }
    }

    @Override
    void validateStatus(PersistentVolume newPv, PersistentVolume oldPv, FieldErrors errs) {
        String phase = newPv.status() == null ? null : newPv.status().phase();
        if (phase != null && !phase.isEmpty()) {
            errs.oneOf("status.phase", phase, List.of("Available", "Bound", "Failed", "Pending", "Released"));
        }
    }
}
