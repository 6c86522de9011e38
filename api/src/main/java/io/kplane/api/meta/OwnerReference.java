package io.kplane.api.meta;

import io.soabase.recordbuilder.core.RecordBuilder;

@RecordBuilder
public record OwnerReference(
        String apiVersion, String kind, String name, String uid, Boolean controller, Boolean blockOwnerDeletion)
        implements OwnerReferenceBuilder.With {

    /** A controller reference with blockOwnerDeletion, as controllers set on what they create. */
    public static OwnerReference controllerOf(String apiVersion, String kind, ObjectMeta owner) {
        return new OwnerReference(apiVersion, kind, owner.name(), owner.uid(), true, true);
    }
}
