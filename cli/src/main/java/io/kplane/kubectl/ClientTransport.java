package io.kplane.kubectl;

import io.kplane.client.RawClient;
import java.io.InputStream;
import java.util.Map;

/** The client module's HTTP client: TLS, every method. */
final class ClientTransport implements Transport {
    private final RawClient raw;

    ClientTransport(RawClient raw) {
        this.raw = raw;
    }

    @Override
    public byte[] request(
            String method, String path, Map<String, String> query, byte[] body, String contentType, String accept) {
        byte[] response =
                raw.request(method, path, query, body, contentType, accept).body();
        return response == null ? new byte[0] : response;
    }

    @Override
    public InputStream stream(String path, Map<String, String> query, String accept) {
        return raw.stream(path, query, accept);
    }

    @Override
    public String server() {
        return raw.config().server();
    }
}
