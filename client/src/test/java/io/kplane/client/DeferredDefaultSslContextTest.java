package io.kplane.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;

class DeferredDefaultSslContextTest {
    @Test
    void aPlainHttpServerGetsTheDeferredContextAndAnHttpsServerTheDefaultOne() throws Exception {
        ClientConfig http = new ClientConfig("http://127.0.0.1:6443", null, null, false, null, Duration.ofSeconds(1));
        ClientConfig https = new ClientConfig("https://127.0.0.1:6443", null, null, false, null, Duration.ofSeconds(1));

        assertThat(TlsContexts.forConfig(http)).isInstanceOf(DeferredDefaultSslContext.class);
        assertThat(TlsContexts.forConfig(https)).isSameAs(SSLContext.getDefault());
    }

    @Test
    void itsDefaultParametersNameNothingSoAnEngineKeepsTheDefaultContextsSettings() throws Exception {
        SSLContext deferred = new DeferredDefaultSslContext();
        SSLParameters params = deferred.getDefaultSSLParameters();
        assertThat(params.getCipherSuites()).isNull();
        assertThat(params.getProtocols()).isNull();

        SSLEngine engine = deferred.createSSLEngine("example.org", 443);
        engine.setSSLParameters(params); // what java.net.http does with the client's parameters
        SSLEngine reference = SSLContext.getDefault().createSSLEngine("example.org", 443);
        assertThat(engine.getEnabledCipherSuites()).containsExactly(reference.getEnabledCipherSuites());
        assertThat(engine.getEnabledProtocols()).containsExactly(reference.getEnabledProtocols());
        assertThat(engine.getPeerHost()).isEqualTo("example.org");
    }
}
