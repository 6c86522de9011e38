package io.kplane.kubelet;

import ch.qos.logback.classic.spi.Configurator;
import io.kplane.api.logging.ProcessLogConfigurator;

/**
 * The kubelet process's logging, set up in code (registered as logback's {@link Configurator} in
 * {@code META-INF/services}): one line per event on stdout,
 * {@code 13:05:00.123 INFO  [kubelet-sim] PodWorker: ...}, the Docker client and its HTTP client at
 * WARN, the root at INFO — what the former {@code logback.xml} said. Why in code, and what still wins
 * over it: {@link ProcessLogConfigurator}.
 */
public final class KubeletLogConfigurator extends ProcessLogConfigurator {
    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level [kubelet-sim] %logger{0}: %msg%n";

    public KubeletLogConfigurator() {
        super(PATTERN, "com.github.dockerjava", "org.apache.hc");
    }
}
