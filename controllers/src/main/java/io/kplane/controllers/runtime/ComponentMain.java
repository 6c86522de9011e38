package io.kplane.controllers.runtime;

import io.kplane.client.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

/**
 * The picocli command every controller process's main class extends: it carries the options all
 * controllers share ({@link ControllerOptions}) and runs the component in a {@link ControllerProcess}.
 * A component's main declares only its own options and how to build the component from them:
 * <pre>{@code
 * @Command(name = "scheduler", mixinStandardHelpOptions = true, description = "...")
 * public final class SchedulerMain extends ComponentMain {
 *     @Option(names = "--unschedulable-retry", ...) Duration retryPeriod;
 *     protected ControllerComponent component() { return new SchedulerComponent(retryPeriod); }
 *     public static void main(String[] args) { exit(new SchedulerMain(), args); }
 * }
 * }</pre>
 */
public abstract class ComponentMain implements Callable<Integer> {
    @Mixin
    protected ControllerOptions options;

    /** The component to run, built from the parsed options. */
    protected abstract ControllerComponent component() throws Exception;

    @Override
    public final Integer call() throws Exception {
        return new ControllerProcess(component(), options, Clock.system()).run();
    }

    /** Parses {@code args} into {@code command}, runs it and exits with its code. */
    public static void exit(Callable<Integer> command, String[] args) {
        System.exit(new CommandLine(command).execute(args));
    }
}
