package io.kplane.controllers;

import io.kplane.controllers.job.JobControllerMain;
import io.kplane.controllers.runtime.ComponentMain;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Entry point of {@code kplane-controllers.jar}: {@code java -jar kplane-controllers.jar <component> [options]}.
 * Each component is also runnable through its own main class; this only dispatches by name.
 */
public final class ControllersMain {
    private static final Map<String, Supplier<ComponentMain>> COMPONENTS = new LinkedHashMap<>();

    static {
        // One line per component: name -> its command (each also has a main class of its own).
        COMPONENTS.put("job-controller", JobControllerMain::new);
        COMPONENTS.put("cronjob-controller", io.kplane.controllers.cronjob.CronJobControllerMain::new);
        COMPONENTS.put("garbage-collector", io.kplane.controllers.gc.GarbageCollectorMain::new);
        COMPONENTS.put("ttl-controller", io.kplane.controllers.ttl.TtlControllerMain::new);
        COMPONENTS.put("scheduler", io.kplane.controllers.scheduler.SchedulerMain::new);
        COMPONENTS.put("node-lifecycle", io.kplane.controllers.nodelifecycle.NodeLifecycleMain::new);
        COMPONENTS.put("local-path-provisioner", io.kplane.controllers.volume.LocalPathProvisionerMain::new);
        COMPONENTS.put("namespace-controller", io.kplane.controllers.namespace.NamespaceControllerMain::new);
    }

    /** The component names this jar runs. */
    public static Set<String> components() {
        return Collections.unmodifiableSet(COMPONENTS.keySet());
    }

    /**
     * A fresh picocli command model of {@code component} (e.g. to check that a deployment's arguments
     * parse: {@code new CommandLine(command(name)).parseArgs(...)}); null for an unknown name.
     */
    public static CommandSpec command(String component) {
        Supplier<ComponentMain> factory = COMPONENTS.get(component);
        return factory == null ? null : factory.get().spec();
    }

    private ControllersMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !COMPONENTS.containsKey(args[0])) {
            System.err.println(
                    "usage: kplane-controllers <component> [options]   (<component> --help for its options)");
            System.err.println("components: " + String.join(", ", COMPONENTS.keySet()));
            System.exit(args.length == 0 || "--help".equals(args[0]) || "-h".equals(args[0]) ? 0 : 2);
            return;
        }
        ComponentMain.exit(COMPONENTS.get(args[0]).get(), Arrays.copyOfRange(args, 1, args.length));
    }
}
