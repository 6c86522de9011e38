package io.kplane.api.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class ProcessLogConfiguratorTest {
    /** A component's configurator as the API server's, the controllers' and the kubelet's are made. */
    static final class SomeComponentLogConfigurator extends ProcessLogConfigurator {
        SomeComponentLogConfigurator() {
            super("%-5level %logger{0}: %msg%n", "org.chatty", "com.noisy");
        }
    }

    @Test
    void configuresStdoutWithThePatternTheWarnLoggersAndTheRootLevel() {
        // the API module's test class path has no logback-test.xml: the configurator sets the context up
        LoggerContext context = new LoggerContext();
        SomeComponentLogConfigurator configurator = new SomeComponentLogConfigurator();
        configurator.setContext(context);

        assertThat(configurator.configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);

        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        assertThat(context.getLogger("org.chatty.Inner").isInfoEnabled()).isFalse();
        assertThat(context.getLogger("com.noisy").isWarnEnabled()).isTrue();
        assertThat(context.getLogger("io.kplane.Anything").isInfoEnabled()).isTrue();
        ConsoleAppender<?> stdout = (ConsoleAppender<?>) root.getAppender("STDOUT");
        assertThat(stdout.isStarted()).isTrue();
        assertThat(stdout.getTarget()).isEqualTo("System.out");
        LoggingEvent event =
                new LoggingEvent("x", context.getLogger("io.kplane.Something"), Level.WARN, "it happened", null, null);
        String line = new String(((PatternLayoutEncoder) stdout.getEncoder()).encode(event), StandardCharsets.UTF_8);
        assertThat(line).isEqualTo("WARN  Something: it happened" + System.lineSeparator());
    }

    @Test
    void applyTakesTheRootLevelGiven() {
        LoggerContext context = new LoggerContext();
        new SomeComponentLogConfigurator().apply(context, "DEBUG");
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.DEBUG);
        assertThat(context.getLogger("org.chatty").getLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void stepsAsideForAnExplicitConfigurationFile() {
        LoggerContext context = new LoggerContext();
        SomeComponentLogConfigurator configurator = new SomeComponentLogConfigurator();
        configurator.setContext(context);
        String before = System.getProperty("logback.configurationFile");
        System.setProperty("logback.configurationFile", "/some/logback.xml");
        try {
            assertThat(configurator.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        } finally {
            if (before == null) {
                System.clearProperty("logback.configurationFile");
            } else {
                System.setProperty("logback.configurationFile", before);
            }
        }
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDOUT"))
                .isNull();
    }
}
