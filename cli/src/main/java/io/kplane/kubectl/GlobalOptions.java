package io.kplane.kubectl;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The connection options every command takes (also before the command name). Declared twice from the
 * same constants: by annotation for the commands picocli builds by reflection ({@code @Mixin}), and in
 * code ({@link #addTo}) for the ones built without reflection (the root and {@code get}, see
 * {@link KubectlLite}); {@link #from} reads them from either kind of model.
 */
public final class GlobalOptions {
    static final String SERVER_HELP =
            "The address of the API server (default: kubeconfig, then " + Connection.DEFAULT_SERVER + ").";
    static final String TOKEN_HELP = "Bearer token for authentication to the API server.";
    static final String KUBECONFIG_HELP = "Path to the kubeconfig file to use.";
    static final String NAMESPACE_HELP = "The namespace scope for this request.";

    @Option(names = "--server", description = SERVER_HELP)
    String server;

    @Option(names = "--token", description = TOKEN_HELP)
    String token;

    @Option(names = "--kubeconfig", description = KUBECONFIG_HELP)
    String kubeconfig;

    @Option(
            names = {"-n", "--namespace"},
            description = NAMESPACE_HELP)
    String namespace;

    /** Adds the four options to a model built in code, in the order the annotated mixin declares them. */
    public static void addTo(CommandSpec spec) {
        spec.addOption(option("<server>", SERVER_HELP, "--server"));
        spec.addOption(option("<token>", TOKEN_HELP, "--token"));
        spec.addOption(option("<kubeconfig>", KUBECONFIG_HELP, "--kubeconfig"));
        spec.addOption(option("<namespace>", NAMESPACE_HELP, "-n", "--namespace"));
    }

    private static OptionSpec option(String label, String help, String... names) {
        return OptionSpec.builder(names)
                .paramLabel(label)
                .type(String.class)
                .description(help)
                .build();
    }

    /** The values a parsed model holds (null where it has no such option or it was not given). */
    static GlobalOptions from(CommandSpec spec) {
        GlobalOptions o = new GlobalOptions();
        o.server = value(spec, "--server");
        o.token = value(spec, "--token");
        o.kubeconfig = value(spec, "--kubeconfig");
        o.namespace = value(spec, "--namespace");
        return o;
    }

    private static String value(CommandSpec spec, String name) {
        OptionSpec option = spec.findOption(name);
        return option == null ? null : option.getValue();
    }

    /** This command's value where set, else the one given before the command name. */
    GlobalOptions over(GlobalOptions outer) {
        GlobalOptions merged = new GlobalOptions();
        merged.server = server != null ? server : outer == null ? null : outer.server;
        merged.token = token != null ? token : outer == null ? null : outer.token;
        merged.kubeconfig = kubeconfig != null ? kubeconfig : outer == null ? null : outer.kubeconfig;
        merged.namespace = namespace != null ? namespace : outer == null ? null : outer.namespace;
        return merged;
    }
}
