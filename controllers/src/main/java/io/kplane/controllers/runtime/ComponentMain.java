package io.kplane.controllers.runtime;

import io.kplane.api.process.CrashOnError;
import io.kplane.client.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command every controller process's main class extends: it carries the options all controllers
 * share ({@link ControllerOptions}) and runs the component in a {@link ControllerProcess}. A
 * component's main names itself, declares only its own options and how to build the component from
 * them:
 * <pre>{@code
 * public final class SchedulerMain extends ComponentMain {
 *     public SchedulerMain() { super("scheduler", "Binds pending pods to Ready nodes ..."); }
 *     protected void addOptions(CommandSpec spec) {
 *         spec.addOption(OptionSpecs.duration("--unschedulable-retry", "60s", "retryPeriod", "..."));
 *     }
 *     protected ControllerComponent component() { return new SchedulerComponent(value("--unschedulable-retry")); }
 *     public static void main(String[] args) { exit(new SchedulerMain(), args); }
 * }
 * }</pre>
 * The command model is built in code ({@link OptionSpecs}), not read from annotations: picocli's
 * reflection over annotated fields was ~17 % of a light controller's main thread at start
 * (docs/performance.md). Option names, defaults and the {@code --help} text are unchanged
 * ({@code ComponentHelpTest}).
 */
public abstract class ComponentMain implements Callable<Integer> {
    private final String name;
    private final String description;
    private CommandSpec spec;
    /** The shared options, read when the command runs. */
    protected ControllerOptions options;

    protected ComponentMain(String name, String description) {
        this.name = name;
        this.description = description;
    }

    /** Adds the component's own options to its command; none by default. */
    protected void addOptions(CommandSpec spec) {}

    /** The component to run, built from the parsed options. */
    protected abstract ControllerComponent component() throws Exception;

    /** This component's command: its name, description, the help options, the shared and its own options. */
    public final synchronized CommandSpec spec() {
        if (spec == null) {
            CommandSpec s = CommandSpec.wrapWithoutInspection(this);
            s.name(name);
            s.usageMessage().description(description);
            s.addOption(OptionSpecs.help());
            s.addOption(OptionSpecs.version());
            ControllerOptions.addTo(s);
            addOptions(s);
            spec = s;
        }
        return spec;
    }

    /** The parsed value of one of this command's options (its default when absent). */
    protected final <T> T value(String option) {
        return value(spec(), option);
    }

    static <T> T value(CommandSpec spec, String option) {
        return spec.findOption(option).getValue();
    }

    @Override
    public final Integer call() throws Exception {
        options = ControllerOptions.from(spec());
        return new ControllerProcess(component(), options, Clock.system()).run();
    }

    /**
     * Parses {@code args} into {@code command}, runs it and exits with its code; a thread that dies of an
     * {@code Error} ends the process ({@link CrashOnError}) so that its supervisor starts it again.
     */
    public static void exit(ComponentMain command, String[] args) {
        CrashOnError.install(command.name);
        System.exit(new CommandLine(command.spec()).execute(args));
    }
}
