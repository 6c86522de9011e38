package io.kplane.client;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/** Builds the SSLContext for a {@link ClientConfig}: custom CA, trust-all (insecure), or the JVM default. */
final class TlsContexts {
    private TlsContexts() {}

    static SSLContext forConfig(ClientConfig config) {
        try {
            if (config.insecureSkipTlsVerify()) {
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
                return context;
            }
            if (config.caCertificatePem() != null) {
                KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
                store.load(null, null);
                int i = 0;
                for (Certificate cert : CertificateFactory.getInstance("X.509")
                        .generateCertificates(new ByteArrayInputStream(
                                config.caCertificatePem().getBytes(StandardCharsets.US_ASCII)))) {
                    store.setCertificateEntry("ca-" + i++, cert);
                }
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(store);
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(null, tmf.getTrustManagers(), new SecureRandom());
                return context;
            }
            if (config.server().regionMatches(true, 0, "http://", 0, 7)) {
                return PlainHttpSslContext.INSTANCE; // no TLS: don't load the JSSE and the CA store for nothing
            }
            return SSLContext.getDefault();
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new KubeClientException("cannot set up TLS for " + config.server() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Accepts any certificate and host name: only with insecure-skip-tls-verify. It must be an extended trust
     * manager, or the JDK wraps it and still checks the host name.
     */
    private static final class TrustAll extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, java.net.Socket socket) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, java.net.Socket socket) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
