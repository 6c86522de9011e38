package io.kplane.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientConfigTest {

    @Test
    void urlsJoinServerAndPathAndEncodeTheQuery() {
        ClientConfig config = ClientConfig.forServer("http://127.0.0.1:6443/");
        assertThat(config.url("/api/v1/pods", null)).isEqualTo("http://127.0.0.1:6443/api/v1/pods");
        Map<String, String> query = new LinkedHashMap<>();
        query.put("labelSelector", "app in (a b)");
        query.put("watch", "true");
        assertThat(config.url("/api/v1/pods", query))
                .isEqualTo("http://127.0.0.1:6443/api/v1/pods?labelSelector=app%20in%20%28a%20b%29&watch=true");
    }

    @Test
    void everyQueryParameterIsEncodedInItsOrder() {
        ClientConfig config = ClientConfig.forServer("http://127.0.0.1:6443");
        Map<String, String> query = new LinkedHashMap<>();
        assertThat(config.url("/api/v1/pods", query)).isEqualTo("http://127.0.0.1:6443/api/v1/pods");
        query.put("limit", "500");
        query.put("labelSelector", "app in (a, b),tier!=web+x");
        query.put("fieldSelector", "metadata.name=\u00e9/\u00fc&?=%");
        query.put("continue", "eyJ2IjoxfQ==");
        assertThat(config.url("/api/v1/namespaces/default/pods", query))
                .isEqualTo("http://127.0.0.1:6443/api/v1/namespaces/default/pods?limit=500"
                        + "&labelSelector=app%20in%20%28a%2C%20b%29%2Ctier%21%3Dweb%2Bx"
                        + "&fieldSelector=metadata.name%3D%C3%A9%2F%C3%BC%26%3F%3D%25"
                        + "&continue=eyJ2IjoxfQ%3D%3D");
    }
}
