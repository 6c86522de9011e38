package io.kplane.kubelet.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.api.core.NodeAddress;
import org.junit.jupiter.api.Test;

class AdvertisedAddressTest {

    @Test
    void anIpIsTheInternalIpAndTheNodeNameStaysTheHostname() {
        AdvertisedAddress a = AdvertisedAddress.of("10.89.0.7", "node-1");
        assertThat(a.nodeAddresses())
                .containsExactly(new NodeAddress("InternalIP", "10.89.0.7"), new NodeAddress("Hostname", "node-1"));
        assertThat(AdvertisedAddress.of("fd00::7", "node-1").internalIp()).isEqualTo("fd00::7");
    }

    @Test
    void theDefaultIsLoopbackAsForTheLocalStack() {
        assertThat(AdvertisedAddress.of(null, "node-1").internalIp()).isEqualTo("127.0.0.1");
    }

    @Test
    void aHostNameIsTheHostnameAddressAndResolvesToTheInternalIp() {
        AdvertisedAddress a = AdvertisedAddress.of("localhost", "node-1");
        assertThat(a.hostname()).isEqualTo("localhost");
        assertThat(a.internalIp()).isIn("127.0.0.1", "0:0:0:0:0:0:0:1");
    }

    @Test
    void anUnresolvableNameIsAClearError() {
        assertThatThrownBy(() -> AdvertisedAddress.of("no-such-host.invalid", "node-1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--node-address no-such-host.invalid: cannot resolve");
    }
}
