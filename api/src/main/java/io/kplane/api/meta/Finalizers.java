package io.kplane.api.meta;

import io.kplane.api.batch.Job;

/**
 * The finalizers Kubernetes itself defines that kplane's API server and controllers act on
 * (apimachinery's {@code metav1.FinalizerOrphanDependents} and {@code FinalizerDeleteDependents},
 * batch's {@code JobTrackingFinalizer}).
 */
public final class Finalizers {
    /** The garbage collector orphans the object's dependents, then removes this. */
    public static final String ORPHAN = "orphan";
    /** The garbage collector deletes the object's blocking dependents first, then removes this. */
    public static final String FOREGROUND_DELETION = "foregroundDeletion";
    /** On a Job's pods until the Job controller has counted them. */
    public static final String JOB_TRACKING = Job.TRACKING_FINALIZER;

    private Finalizers() {}
}
