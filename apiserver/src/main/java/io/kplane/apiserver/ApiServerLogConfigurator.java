package io.kplane.apiserver;

import ch.qos.logback.classic.spi.Configurator;
import io.kplane.api.logging.ProcessLogConfigurator;

/**
 * The API server process's logging, set up in code (registered as logback's {@link Configurator} in
 * {@code META-INF/services}): one line per event on stdout,
 * {@code 2026-11-24T13:05:00.123Z INFO  i.k.apiserver.ApiServerMain listening ...}, Netty and the
 * embedded PostgreSQL at WARN, the root at INFO — what the former {@code logback.xml} said. Why in code,
 * and what still wins over it: {@link ProcessLogConfigurator}.
 */
public final class ApiServerLogConfigurator extends ProcessLogConfigurator {
    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX} %-5level %logger{24} %msg%n";

    public ApiServerLogConfigurator() {
        super(PATTERN, "io.netty", "io.zonky");
    }
}
