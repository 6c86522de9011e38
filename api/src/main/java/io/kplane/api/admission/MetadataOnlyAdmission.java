package io.kplane.api.admission;

import io.kplane.api.meta.KubeObject;

/** Name, label and annotation checks only: for resources without rules of their own. */
public final class MetadataOnlyAdmission extends TypedAdmission<KubeObject> {
    public MetadataOnlyAdmission(boolean namespaced) {
        super(KubeObject.class, namespaced, MetadataValidation.NameRule.SUBDOMAIN);
    }
}
