package io.kplane.controllers.runtime;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.Logger;

/**
 * The controller processes' logging, set up in code (registered as logback's {@link Configurator} in
 * {@code META-INF/services}): one line per event on stdout,
 * {@code 2026-11-24T13:05:00.123Z INFO  [main] ControllerProcess - ...}, the informers' internals at
 * WARN, the root level from {@code KPLANE_LOG_LEVEL} (a system property or the environment; default INFO).
 *
 * <p>Why not {@code logback.xml}: reading it (Joran's XML parsing, model building and reflective
 * wiring) was about a quarter of a light controller's main-thread CPU at start (docs/performance.md,
 * "Start-up CPU per component"), in each of the eight controller JVMs. An explicit
 * {@code -Dlogback.configurationFile=...}, or a {@code logback-test.xml} on the class path, still wins:
 * then this configurator steps aside and logback reads that file (the jar has no {@code logback.xml}:
 * this class is the one place of the processes' logging settings).
 */
public final class ControllerLogConfigurator extends ContextAwareBase implements Configurator {
    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX} %-5level [%thread] %logger{0} - %msg%n";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null
                || ControllerLogConfigurator.class.getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        apply(context, rootLevel());
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** Sets up {@code context}: stdout with {@link #PATTERN}, the root logger at {@code level}. */
    static void apply(LoggerContext context, String level) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stdout = new ConsoleAppender<>();
        stdout.setContext(context);
        stdout.setName("STDOUT");
        stdout.setEncoder(encoder);
        stdout.start();
        context.getLogger("io.kplane.client.informer").setLevel(Level.WARN);
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(level, Level.INFO));
        root.addAppender(stdout);
    }

    /** {@code KPLANE_LOG_LEVEL} as the former logback.xml's {@code ${KPLANE_LOG_LEVEL:-INFO}} read it. */
    private static String rootLevel() {
        String level = System.getProperty("KPLANE_LOG_LEVEL");
        if (level == null) {
            level = System.getenv("KPLANE_LOG_LEVEL");
        }
        return level == null ? "INFO" : level;
    }
}
