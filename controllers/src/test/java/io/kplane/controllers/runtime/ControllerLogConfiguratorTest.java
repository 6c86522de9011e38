package io.kplane.controllers.runtime;

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

class ControllerLogConfiguratorTest {
    @Test
    void logsOneLinePerEventOnStdoutWithTheInformersAtWarn() {
        LoggerContext context = new LoggerContext();
        new ControllerLogConfigurator().apply(context, "INFO");

        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        assertThat(context.getLogger("io.kplane.client.informer").getLevel()).isEqualTo(Level.WARN);
        assertThat(context.getLogger("io.kplane.client.informer.Reflector").isInfoEnabled())
                .isFalse();
        ConsoleAppender<?> stdout = (ConsoleAppender<?>) root.getAppender("STDOUT");
        assertThat(stdout.isStarted()).isTrue();
        assertThat(stdout.getTarget()).isEqualTo("System.out");

        PatternLayoutEncoder encoder = (PatternLayoutEncoder) stdout.getEncoder();
        ch.qos.logback.classic.Logger logger = context.getLogger("io.kplane.controllers.runtime.ControllerProcess");
        LoggingEvent event = new LoggingEvent("x", logger, Level.INFO, "ttl-controller starting", null, null);
        event.setThreadName("main");
        String line = new String(encoder.encode(event), StandardCharsets.UTF_8);
        assertThat(line)
                .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\S+ INFO  \\[main\\] ControllerProcess"
                        + " - ttl-controller starting" + System.lineSeparator());
    }

    @Test
    void theRootLevelFollowsKplaneLogLevel() {
        LoggerContext context = new LoggerContext();
        new ControllerLogConfigurator().apply(context, "DEBUG");
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.DEBUG);
    }

    @Test
    void stepsAsideForALogbackTestXmlOnTheClassPath() {
        // the test class path has one (the API server's test jar): logback reads it, as before
        assertThat(ControllerLogConfigurator.class.getClassLoader().getResource("logback-test.xml"))
                .isNotNull();
        LoggerContext context = new LoggerContext();
        ControllerLogConfigurator configurator = new ControllerLogConfigurator();
        configurator.setContext(context);
        assertThat(configurator.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDOUT"))
                .isNull();
    }
}
