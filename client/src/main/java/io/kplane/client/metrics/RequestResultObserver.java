package io.kplane.client.metrics;

/**
 * Told the outcome of every request the REST client sends, as client-go's {@code metrics.RequestResult}
 * is: the status code ({@code "<error>"} when no response came), the HTTP method and the server's
 * {@code host:port}. A process exports it as upstream's {@code rest_client_requests_total{code,method,host}};
 * the client itself keeps no metrics library on its classpath (kubectl-lite uses it too).
 */
@FunctionalInterface
public interface RequestResultObserver {
    /** Upstream's metric name (client-go {@code rest_client_requests_total}, without the {@code _total} suffix Prometheus adds to counters). */
    String METRIC = "rest_client_requests";

    String HELP = "Number of HTTP requests, partitioned by status code, method, and host.";
    /** The code client-go reports when a request got no response (connection refused, timeout...). */
    String ERROR_CODE = "<error>";

    RequestResultObserver NOOP = (code, method, host) -> {};

    void increment(String code, String method, String host);
}
