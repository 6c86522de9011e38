package io.kplane.launcher;

import io.kplane.apiserver.ApiServerMain;
import io.kplane.controllers.ControllersMain;
import io.kplane.kubelet.KubeletMain;
import picocli.CommandLine;

/**
 * Parses a component's arguments with the component's real picocli command, as
 * {@code deploy/bin/kplane-component <entry point> ...} would run it: an option the component does not
 * have fails here, not in a container at run time.
 */
final class ComponentCommandLines {
    private ComponentCommandLines() {}

    /** The command object {@code kplane-component <entryPoint>} runs. */
    static Object command(String entryPoint) {
        return switch (entryPoint) {
            case "apiserver" -> new ApiServerMain();
            case "kubelet-sim" -> new KubeletMain();
            case "postgres" -> new PostgresMain();
            default -> {
                Object controller = ControllersMain.command(entryPoint);
                if (controller == null) {
                    throw new IllegalArgumentException("kplane-component has no component \"" + entryPoint + "\"");
                }
                yield controller;
            }
        };
    }

    /** @throws CommandLine.ParameterException with picocli's message (e.g. Unknown option) */
    static void parse(String entryPoint, java.util.List<String> args) {
        new CommandLine(command(entryPoint)).parseArgs(args.toArray(String[]::new));
    }
}
