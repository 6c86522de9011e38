package io.kplane.apiserver.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.admission.PersistentVolumeAdmission;
import io.kplane.api.admission.PersistentVolumeClaimAdmission;
import io.kplane.apiserver.kubectl.Printers;

/**
 * PersistentVolumeClaims and PersistentVolumes ({@code registry/core/persistentvolume(claim)}): the
 * status a client sends on create is dropped (phase Pending comes from defaulting); binding is the
 * provisioner's, through the status subresource.
 */
final class VolumeStrategies {
    private VolumeStrategies() {}

    static ResourceStrategy claims() {
        return new GenericStrategy(
                ResourceTypes.PERSISTENTVOLUMECLAIMS,
                new PersistentVolumeClaimAdmission(),
                Printers.persistentVolumeClaim()) {
            @Override
            public void prepareStatusForCreate(ObjectNode object) {
                object.remove("status");
            }
        };
    }

    static ResourceStrategy volumes() {
        return new GenericStrategy(
                ResourceTypes.PERSISTENTVOLUMES, new PersistentVolumeAdmission(), Printers.persistentVolume()) {
            @Override
            public void prepareStatusForCreate(ObjectNode object) {
                object.remove("status");
            }
        };
    }
}
