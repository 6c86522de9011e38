package io.kplane.apiserver;

import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;

/**
 * The API server's socket settings ({@link ApiListener} binds every event loop's server with them).
 */
final class ApiHttpServerOptions {
    private ApiHttpServerOptions() {}

    /** {@code port} as Vert.x takes it: a negative port is "a random port, shared" (0 is not shared). */
    static HttpServerOptions of(ApiServerOptions options, int port) {
        HttpServerOptions http = new HttpServerOptions()
                .setHost(options.bindHost())
                .setPort(port)
                .setCompressionSupported(false)
                .setMaxInitialLineLength(16 * 1024)
                .setMaxHeaderSize(64 * 1024);
        if (options.tlsCertFile() != null) {
            http.setSsl(true)
                    .setKeyCertOptions(new PemKeyCertOptions()
                            .setCertPath(options.tlsCertFile().toString())
                            .setKeyPath(options.tlsKeyFile().toString()));
        }
        return http;
    }

    /** The Vert.x port for the configured one: 0 ("pick one") becomes -1, shared between servers. */
    static int sharedPort(ApiServerOptions options) {
        return options.port() == 0 ? -1 : options.port();
    }
}
