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
}
