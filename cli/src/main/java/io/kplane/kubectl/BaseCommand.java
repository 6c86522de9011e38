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

    @Spec
    protected CommandSpec spec;

    private Connection connection;

    protected Connection connection() {
        if (connection == null) {
            GlobalOptions merged = options;
            for (CommandSpec p = spec.parent(); p != null; p = p.parent()) {
                Object user = p.userObject();
                if (user instanceof BaseCommand b) {
                    merged = merged.over(b.options);
                } else if (user instanceof KubectlLite root) {
                    merged = merged.over(root.options);
                }
            }
            KubectlLite.Environment env = environment();
            connection = Connection.resolve(
                    merged.server, merged.token, merged.kubeconfig, merged.namespace, env.kubeconfigEnv(), env.home());
        }
        return connection;
    }

    /** The environment of the run this command belongs to (its root {@link KubectlLite}). */
    private KubectlLite.Environment environment() {
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
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }

    protected InputStream stdin() {
        return environment().stdin();
    }

    protected Path workingDirectory() {
        return Path.of("").toAbsolutePath();
    }
}
