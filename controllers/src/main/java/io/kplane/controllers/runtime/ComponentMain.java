package io.kplane.controllers.runtime;

import io.kplane.client.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * Shared body of every controller process's {@code main}: parse the common options (plus the
 * component's own, declared on {@code command}), then run the component in a
 * {@link ControllerProcess}. Usage in a component:
 * <pre>{@code
 * @Command(name = "job-controller", mixinStandardHelpOptions = true)
 * public final class JobControllerMain implements Callable<Integer> {
 *     @Mixin ControllerOptions options;
 *     public Integer call() throws Exception { return ComponentMain.run(new JobControllerComponent(...), options); }
 *     public static void main(String[] args) { ComponentMain.exit(new JobControllerMain(), args); }
 * }
 * }</pre>
 */
public final class ComponentMain {
    private ComponentMain() {}

    public static int run(ControllerComponent component, ControllerOptions options) throws Exception {
        return new ControllerProcess(component, options, Clock.system()).run();
    }

    /** Parses {@code args} into {@code command}, runs it and exits with its code. */
    public static void exit(Callable<Integer> command, String[] args) {
        System.exit(new CommandLine(command).execute(args));
    }
}
