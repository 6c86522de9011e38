package io.kplane.controllers;

import io.kplane.controllers.job.JobControllerMain;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Entry point of {@code kplane-controllers.jar}: {@code java -jar kplane-controllers.jar <component> [options]}.
 * Each component is also runnable through its own main class; this only dispatches by name.
 */
public final class ControllersMain {
    /** A component's main method. */
    @FunctionalInterface
    interface ComponentMain {
        void main(String[] args) throws Exception;
    }

    private static final Map<String, ComponentMain> COMPONENTS = new LinkedHashMap<>();

    static {
        // One line per component: name -> its own main class.
        COMPONENTS.put("job-controller", JobControllerMain::main);
        COMPONENTS.put("cronjob-controller", io.kplane.controllers.cronjob.CronJobControllerMain::main);
        COMPONENTS.put("garbage-collector", io.kplane.controllers.gc.GarbageCollectorMain::main);
        COMPONENTS.put("ttl-controller", io.kplane.controllers.ttl.TtlControllerMain::main);
        COMPONENTS.put("scheduler", io.kplane.controllers.scheduler.SchedulerMain::main);
        COMPONENTS.put("node-lifecycle", io.kplane.controllers.nodelifecycle.NodeLifecycleMain::main);
        COMPONENTS.put("local-path-provisioner", io.kplane.controllers.volume.LocalPathProvisionerMain::main);
    }

    private ControllersMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !COMPONENTS.containsKey(args[0])) {
            System.err.println("usage: kplane-controllers <component> [options]   (<component> --help for its options)");
            System.err.println("components: " + String.join(", ", COMPONENTS.keySet()));
            System.exit(args.length == 0 || "--help".equals(args[0]) || "-h".equals(args[0]) ? 0 : 2);
            return;
        }
        COMPONENTS.get(args[0]).main(Arrays.copyOfRange(args, 1, args.length));
    }
}
