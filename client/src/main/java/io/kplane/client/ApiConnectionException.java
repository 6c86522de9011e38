package io.kplane.client;

/** The API server could not be reached (refused, reset, timed out, TLS failure). */
public class ApiConnectionException extends KubeClientException {
    private final String url;

    public ApiConnectionException(String url, Throwable cause) {
        super(
                "cannot reach the apiserver at URL: " + url
                        + (cause == null || cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")"),
                cause);
        this.url = url;
    }

    public String url() {
        return url;
    }
}
