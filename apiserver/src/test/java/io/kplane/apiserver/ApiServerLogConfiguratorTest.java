package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import java.nio.charset.StandardCharsets;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class ApiServerLogConfiguratorTest {
    @Test
    void logsAsTheFormerLogbackXmlDid() {
        LoggerContext context = new LoggerContext();
        new ApiServerLogConfigurator().apply(context, "INFO");

        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        assertThat(context.getLogger("io.netty").getLevel()).isEqualTo(Level.WARN);
        assertThat(context.getLogger("io.zonky").getLevel()).isEqualTo(Level.WARN);
        ConsoleAppender<?> stdout = (ConsoleAppender<?>) root.getAppender("STDOUT");
        assertThat(stdout.getTarget()).isEqualTo("System.out");
        LoggingEvent event = new LoggingEvent(
                "x", context.getLogger(ApiServerMain.class.getName()), Level.INFO, "listening on :6443", null, null);
        String line = new String(((PatternLayoutEncoder) stdout.getEncoder()).encode(event), StandardCharsets.UTF_8);
        assertThat(line)
                .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\S+ INFO  i\\.k\\.a\\.ApiServerMain"
                        + " listening on :6443" + System.lineSeparator());
    }

    @Test
    void isLogbacksConfiguratorAndStepsAsideForTheTestsLogbackTestXml() {
        assertThat(ServiceLoader.load(Configurator.class).stream().map(ServiceLoader.Provider::type))
                .contains(ApiServerLogConfigurator.class);
        assertThat(getClass().getClassLoader().getResource("logback-test.xml")).isNotNull();
        LoggerContext context = new LoggerContext();
        ApiServerLogConfigurator configurator = new ApiServerLogConfigurator();
        configurator.setContext(context);
        assertThat(configurator.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
    }
}
