package io.kplane.client;

/** Base of every error the kplane client raises; unchecked, like the Kubernetes Java clients'. */
public class KubeClientException extends RuntimeException {
    public KubeClientException(String message) {
        super(message);
    }

    public KubeClientException(String message, Throwable cause) {
        super(message, cause);
    }
}
