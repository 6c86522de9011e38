package io.kplane.controllers.runtime;

import ch.qos.logback.classic.spi.Configurator;
import io.kplane.api.logging.ProcessLogConfigurator;

/**
 * The controller processes' logging, set up in code (registered as logback's {@link Configurator} in
 * {@code META-INF/services}): one line per event on stdout,
 * {@code 2026-11-24T13:05:00.123Z INFO  [main] ControllerProcess - ...}, the informers' internals at
 * WARN, the root level from {@code KPLANE_LOG_LEVEL} (a system property or the environment; default INFO).
 * Why in code, and what still wins over it: {@link ProcessLogConfigurator}. The jar has no
 * {@code logback.xml}: this class is the one place of the processes' logging settings.
 */
public final class ControllerLogConfigurator extends ProcessLogConfigurator {
    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX} %-5level [%thread] %logger{0} - %msg%n";

    public ControllerLogConfigurator() {
        super(PATTERN, "io.kplane.client.informer");
    }

    /** {@code KPLANE_LOG_LEVEL} as the former logback.xml's {@code ${KPLANE_LOG_LEVEL:-INFO}} read it. */
    @Override
    protected String rootLevel() {
        String level = System.getProperty("KPLANE_LOG_LEVEL");
        if (level == null) {
            level = System.getenv("KPLANE_LOG_LEVEL");
        }
        return level == null ? "INFO" : level;
    }
}
