package io.kplane.api.meta;

import java.util.List;

/** {@code DeleteOptions.propagationPolicy} values (apimachinery's {@code metav1.DeletionPropagation}). */
public final class DeletionPropagation {
    /** Dependents are left alone (their ownerReference to the object is removed). */
    public static final String ORPHAN = "Orphan";
    /** The object goes at once; the garbage collector deletes its dependents afterwards. */
    public static final String BACKGROUND = "Background";
    /** The object stays (with {@link Finalizers#FOREGROUND_DELETION}) until its blocking dependents are gone. */
    public static final String FOREGROUND = "Foreground";
    /** Every value the API accepts, in the order its error message lists them. */
    public static final List<String> ALL = List.of(FOREGROUND, BACKGROUND, ORPHAN);

    private DeletionPropagation() {}
}
