package io.kplane.kubectl;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Runs kubectl-lite in-process against a server, capturing stdout, stderr and the exit code. */
final class CliRunner {
    record Result(int code, String out, String err) {
    }

    private final String server;

    CliRunner(String server) {
        this.server = server;
    }

    Result run(String... args) {
        return runWithStdin("", args);
    }

    Result runWithStdin(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] full = new String[args.length + 2];
        full[0] = "--server";
        full[1] = server;
        System.arraycopy(args, 0, full, 2, args.length);
        int code = KubectlLite.run(full, new PrintWriter(out), new PrintWriter(err),
                new KubectlLite.Environment(null, Path.of("/nonexistent"),
                        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8))));
        return new Result(code, out.toString(), err.toString());
    }
}
