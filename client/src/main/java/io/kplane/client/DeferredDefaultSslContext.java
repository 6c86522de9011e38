package io.kplane.client;

import java.security.KeyManagementException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The JVM's default {@link SSLContext}, set up only when a TLS connection is first made. For a client of a
 * plain {@code http://} API server (every component of a local stack): {@code java.net.http}'s client asks
 * for {@code SSLContext.getDefault()} and its default parameters when it is built, which reads the JDK's
 * trust store (about 150 certificates) and checks every cipher suite: measured a third of a controller's
 * main-thread CPU at start (docs/performance.md, "Start-up CPU per component"), for a context such a
 * client never uses. The default parameters are empty (no cipher suites or protocols named), which an
 * {@link SSLEngine} takes as "keep the context's defaults", so a TLS connection, should one be made,
 * behaves as with {@code SSLContext.getDefault()}.
 */
final class DeferredDefaultSslContext extends SSLContext {
    DeferredDefaultSslContext() {
        super(new DeferredSpi(), null, "Default");
    }

    private static final class DeferredSpi extends SSLContextSpi {
        private volatile SSLContext delegate;

        private SSLContext delegate() {
            SSLContext d = delegate;
            if (d == null) {
                try {
                    d = SSLContext.getDefault();
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException("no default TLS context in this JVM: " + e.getMessage(), e);
                }
                delegate = d;
            }
            return d;
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random)
                throws KeyManagementException {
            throw new KeyManagementException("the default TLS context is initialized by the JVM");
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return delegate().getSocketFactory();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return delegate().getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return delegate().createSSLEngine();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return delegate().createSSLEngine(host, port);
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return delegate().getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return delegate().getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return new SSLParameters(); // read when the HTTP client is built: must not set up TLS
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return delegate().getSupportedSSLParameters();
        }
    }
}
