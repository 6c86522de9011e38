package io.kplane.kubelet.runtime;

/** The container cannot be reached by exec, attach or port-forward (gone, or the runtime cannot). */
public class ExecNotSupportedException extends Exception {
    public ExecNotSupportedException(String message) {
        super(message);
    }
}
