package io.kplane.kubectl;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** What every command shares: the connection options, the resolved connection, the output streams. */
public abstract class BaseCommand implements Callable<Integer> {
    @Mixin
    GlobalOptions options;

    /** Injected by picocli, or set by a command that builds its model in code. */
    @Spec
    protected CommandSpec spec;

    private Connection connection;

    /** A command run without a picocli model ({@link QuickGet}): its output streams and environment. */
    private PrintWriter out;

    private PrintWriter err;
    private KubectlLite.Environment env;

    /**
     * Prepares a command that runs without a picocli model: {@code options} are the connection options
     * already merged (the command's own over those before its name), as {@link #connection()} merges a
     * model's.
     */
    void withoutModel(GlobalOptions options, PrintWriter out, PrintWriter err, KubectlLite.Environment env) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.env = env;
    }

    protected Connection connection() {
        if (connection == null) {
            // options: injected for a command picocli built from annotations, set for one run without a
            // model; null for one built in code
            GlobalOptions merged = options != null ? options : GlobalOptions.from(spec);
            for (CommandSpec p = spec == null ? null : spec.parent(); p != null; p = p.parent()) {
                merged = merged.over(GlobalOptions.from(p));
            }
            KubectlLite.Environment env = environment();
            connection = Connection.resolve(
                    merged.server, merged.token, merged.kubeconfig, merged.namespace, env.kubeconfigEnv(), env.home());
        }
        return connection;
    }

    /** The environment of the run this command belongs to (its root {@link KubectlLite}). */
    private KubectlLite.Environment environment() {
        if (spec == null) {
            return env;
        }
        for (CommandSpec p = spec.parent(); p != null; p = p.parent()) {
            if (p.userObject() instanceof KubectlLite root) {
                return root.environment;
            }
        }
        return KubectlLite.Environment.system();
    }

    protected Api api() {
        return connection().api();
    }

    protected String namespace() {
        return connection().namespace();
    }

    protected PrintWriter out() {
        return spec == null ? out : spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec == null ? err : spec.commandLine().getErr();
    }

    protected InputStream stdin() {
        return environment().stdin();
    }

    protected Path workingDirectory() {
        return Path.of("").toAbsolutePath();
    }
}
