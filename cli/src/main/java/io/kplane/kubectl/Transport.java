package io.kplane.kubectl;

import java.io.InputStream;
import java.util.Map;

/**
 * How {@link Api} reaches the server. Non-2xx answers throw {@link io.kplane.client.ApiException};
 * an unreachable server throws {@link io.kplane.client.ApiConnectionException}.
 */
interface Transport {
    /** The response body of a successful request (empty when there is none). */
    byte[] request(
            String method, String path, Map<String, String> query, byte[] body, String contentType, String accept);

    /** A streaming GET (watch, log follow); the caller closes the stream. */
    InputStream stream(String path, Map<String, String> query, String accept);

    String server();
}
