package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.client.ClientConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plain-HTTP transport asks for exactly the URL the client module would build. */
class PlainHttpTransportTest {
    @Test
    void urlsAreTheClientConfigs() {
        ClientConfig config = ClientConfig.forServer("http://127.0.0.1:6443");
        Map<String, String> query = new LinkedHashMap<>();
        assertThat(PlainHttpTransport.url(config.server(), "/api/v1/pods", null))
                .isEqualTo(config.url("/api/v1/pods", null));
        assertThat(PlainHttpTransport.url(config.server(), "/api/v1/pods", query))
                .isEqualTo(config.url("/api/v1/pods", query));
        query.put("limit", "500");
        query.put("labelSelector", "app in (a, b),tier!=web+x");
        query.put("fieldSelector", "metadata.name=é/ü&?=%");
        query.put("continue", "eyJ2IjoxfQ==");
        assertThat(PlainHttpTransport.url(config.server(), "/api/v1/namespaces/default/pods", query))
                .isEqualTo(config.url("/api/v1/namespaces/default/pods", query))
                .startsWith("http://127.0.0.1:6443/api/v1/namespaces/default/pods?limit=500&labelSelector=app%20in%20");
    }
}
