package io.kplane.client;

import java.security.KeyManagementException;
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
 * The SSLContext of a client whose server is {@code http://}: java.net.http's client wants one at
 * construction and, given none, takes {@link SSLContext#getDefault()}, which loads the JSSE provider
 * (~400 classes) and parses the JDK's whole CA store (~140 certificates) — in every controller and
 * kubelet process, for a connection that never speaks TLS. Measured in an idle controller: the CA store
 * alone held ~1,700 {@code ObjectIdentifier}s, ~1,000 {@code DerValue}s and their byte arrays in the
 * heap, and the classes were ~9% of the process's class metadata. This context does nothing and fails
 * clearly if anything ever asks it for TLS (a redirect to {@code https://} is not followed: the client
 * never follows redirects).
 */
final class PlainHttpSslContext extends SSLContext {
    static final SSLContext INSTANCE = new PlainHttpSslContext();

    private PlainHttpSslContext() {
        super(new NoTls(), null, "none");
    }

    private static final class NoTls extends SSLContextSpi {
        private static IllegalStateException unsupported() {
            return new IllegalStateException(
                    "TLS is not set up for this client: its server URL is http:// (use https:// to connect with TLS)");
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) throws KeyManagementException {
            throw new KeyManagementException(unsupported());
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            throw unsupported();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            throw unsupported();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            throw unsupported();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            throw unsupported();
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            throw unsupported();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            throw unsupported();
        }

        // java.net.http's client copies these at construction: plain parameters, no JSSE behind them
        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return new SSLParameters();
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return new SSLParameters();
        }
    }
}
