package io.kplane.controllers.job;

import io.kplane.api.core.Pod;
import io.kplane.api.meta.OwnerReference;
import io.kplane.client.lens.SyncScope;

/**
 * A {@link PodControl} that adds each pod write (with the resourceVersion returned, or the error) to
 * the running sync's lens record. Used only when the lens is on.
 */
final class LensPodControl implements PodControl {
    private final PodControl delegate;

    LensPodControl(PodControl delegate) {
        this.delegate = delegate;
    }

    private static String key(Pod pod) {
        return pod.metadata().namespace() + "/"
                + (pod.metadata().name() != null
                        ? pod.metadata().name()
                        : pod.metadata().generateName() + "*");
    }

    private static String error(Exception e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    @Override
    public Pod create(Pod pod) throws Exception {
        SyncScope scope = SyncScope.current();
        try {
            Pod created = delegate.create(pod);
            scope.wrote("create", "pods", key(created), created.metadata().resourceVersion(), null);
            return created;
        } catch (Exception e) {
            scope.wrote("create", "pods", key(pod), null, error(e));
            throw e;
        }
    }

    @Override
    public boolean delete(String namespace, String name) throws Exception {
        SyncScope scope = SyncScope.current();
        try {
            boolean existed = delegate.delete(namespace, name);
            scope.wrote("delete", "pods", namespace + "/" + name, null, existed ? null : "NotFound");
            return existed;
        } catch (Exception e) {
            scope.wrote("delete", "pods", namespace + "/" + name, null, error(e));
            throw e;
        }
    }

    @Override
    public boolean removeTrackingFinalizer(Pod pod) throws Exception {
        SyncScope scope = SyncScope.current();
        try {
            boolean existed = delegate.removeTrackingFinalizer(pod);
            scope.wrote("patch (remove finalizer)", "pods", key(pod), null, existed ? null : "NotFound");
            return existed;
        } catch (Exception e) {
            scope.wrote("patch (remove finalizer)", "pods", key(pod), null, error(e));
            throw e;
        }
    }

    @Override
    public void adopt(Pod pod, OwnerReference controllerRef) throws Exception {
        SyncScope scope = SyncScope.current();
        try {
            delegate.adopt(pod, controllerRef);
            scope.wrote("patch (adopt)", "pods", key(pod), null, null);
        } catch (Exception e) {
            scope.wrote("patch (adopt)", "pods", key(pod), null, error(e));
            throw e;
        }
    }

    @Override
    public void release(Pod pod, String ownerUid) throws Exception {
        SyncScope scope = SyncScope.current();
        try {
            delegate.release(pod, ownerUid);
            scope.wrote("patch (release)", "pods", key(pod), null, null);
        } catch (Exception e) {
            scope.wrote("patch (release)", "pods", key(pod), null, error(e));
            throw e;
        }
    }
}
