package io.kplane.client;

import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;

/** A whole HTTP response, for requests the typed client does not model. */
public record RawResponse(int statusCode, HttpHeaders headers, byte[] body) {
    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    public String contentType() {
        return headers.firstValue("Content-Type").orElse("");
    }

    public boolean isSuccess() {
        return statusCode >= 200 && statusCode < 300;
    }
}
