package io.kplane.api.admission;

import io.kplane.api.meta.KubeObject;

/** Name, label and annotation checks only: for resources without rules of their own. */
final class MetadataOnlyAdmission extends TypedAdmission<KubeObject> {
    MetadataOnlyAdmission(boolean namespaced) {
        super(KubeObject.class, namespaced, MetadataValidation.NameRule.SUBDOMAIN);
    }
}
