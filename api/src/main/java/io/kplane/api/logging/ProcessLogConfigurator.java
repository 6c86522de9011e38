package io.kplane.api.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.List;
import org.slf4j.Logger;

/**
 * A component process's logging, set up in code: one line per event on stdout with the component's
 * pattern, a few chatty loggers at WARN, the root logger at {@link #rootLevel()}. Each component (API
 * server, controllers, kubelet) registers its own subclass as logback's {@link Configurator} in its
 * {@code META-INF/services}; this class itself is registered nowhere.
 *
 * <p>Why not {@code logback.xml}: logback reads it with Joran (the JDK's XML parser, a model, reflective
 * wiring), ~310 classes and about a quarter of a light controller's main-thread CPU at start, in each of
 * the stack's JVMs (docs/performance.md, "Start-up CPU per component"). An explicit
 * {@code -Dlogback.configurationFile=...}, or a {@code logback-test.xml} on the class path, still wins:
 * then the configurator steps aside and logback reads that file.
 *
 * <p>It lives in the API module because that is the one module the API server, the controllers and the
 * kubelet all depend on; logback is an optional dependency there (kubectl-lite logs nowhere).
 */
public abstract class ProcessLogConfigurator extends ContextAwareBase implements Configurator {
    private final String pattern;
    private final List<String> warnLoggers;

    /**
     * @param pattern the encoder's pattern, as the component's former {@code logback.xml} had it
     * @param warnLoggers loggers (and their children) held at WARN
     */
    protected ProcessLogConfigurator(String pattern, String... warnLoggers) {
        this.pattern = pattern;
        this.warnLoggers = List.of(warnLoggers);
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null
                || getClass().getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        apply(context, rootLevel());
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** The root logger's level (INFO unless a component reads it from somewhere). */
    protected String rootLevel() {
        return "INFO";
    }

    /** Sets up {@code context}: stdout with the pattern, the WARN loggers, the root logger at {@code level}. */
    public final void apply(LoggerContext context, String level) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stdout = new ConsoleAppender<>();
        stdout.setContext(context);
        stdout.setName("STDOUT");
        stdout.setEncoder(encoder);
        stdout.start();
        for (String name : warnLoggers) {
            context.getLogger(name).setLevel(Level.WARN);
        }
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(level, Level.INFO));
        root.addAppender(stdout);
    }

    /** The pattern lines are written with (the tests compare it with the former logback.xml's). */
    public final String pattern() {
        return pattern;
    }
}
