package io.kplane.apiserver.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.apiserver.errors.ApiError;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.Test;

class KubeletEndpointTest {

    private static ObjectNode node(String addresses, int port) throws Exception {
        return (ObjectNode) Json.mapper()
                .readTree("{\"metadata\":{\"name\":\"node-1\"},\"status\":{\"addresses\":" + addresses
                        + ",\"daemonEndpoints\":{\"kubeletEndpoint\":{\"Port\":" + port + "}}}}");
    }

    @Test
    void theInternalIpIsPreferredWhereverItIsListed() throws Exception {
        KubeletEndpoint e = KubeletEndpoint.of(node(
                "[{\"type\":\"Hostname\",\"address\":\"kubelet-sim-1\"},"
                        + "{\"type\":\"InternalIP\",\"address\":\"10.89.0.7\"}]",
                10250));
        assertThat(e).isEqualTo(new KubeletEndpoint("node-1", "10.89.0.7", 10250));
        assertThat(e.request(HttpMethod.GET, "/healthz", "tok").getHeaders().get("Authorization"))
                .isEqualTo("Bearer tok");
        assertThat(e.request(HttpMethod.GET, "/healthz", null).getHeaders()).isNull();
    }

    @Test
    void theHostnameServesWhenThereIsNoInternalIp() throws Exception {
        KubeletEndpoint e = KubeletEndpoint.of(node(
                "[{\"type\":\"ExternalIP\",\"address\":\"203.0.113.1\"},"
                        + "{\"type\":\"Hostname\",\"address\":\"kubelet-sim-1\"}]",
                10252));
        assertThat(e.host()).isEqualTo("kubelet-sim-1");
        assertThat(e.authority()).isEqualTo("kubelet-sim-1:10252");
        assertThat(new KubeletEndpoint("n", "fd00::1", 1).authority()).isEqualTo("[fd00::1]:1");
    }

    @Test
    void aNodeWithoutAddressOrPortIsABadRequest() throws Exception {
        assertThatThrownBy(() -> KubeletEndpoint.of(node("[]", 10250)))
                .isInstanceOf(ApiError.class)
                .hasMessageContaining("the kubelet of node node-1 has no reachable address");
        assertThatThrownBy(() -> KubeletEndpoint.of(node("[{\"type\":\"InternalIP\",\"address\":\"10.0.0.1\"}]", 0)))
                .isInstanceOf(ApiError.class);
    }
}
