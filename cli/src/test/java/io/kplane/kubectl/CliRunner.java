package io.kplane.kubectl;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Runs kubectl-lite in-process against a server, capturing stdout, stderr and the exit code. */
final class CliRunner {
    record Result(int code, String out, String err) {}

    /** Job {@code pi}: one busybox pod printing 3.14159, no retries (the tests that apply it wait for Complete). */
    static final String PI_JOB =
            """
            apiVersion: batch/v1
            kind: Job
            metadata: {name: pi}
            spec:
              backoffLimit: 0
              template:
                spec:
                  restartPolicy: Never
                  containers:
                  - name: pi
                    image: busybox
                    command: [sh, -c, "echo 3.14159"]
            """;

    private final String server;

    CliRunner(String server) {
        this.server = server;
    }

    Result run(String... args) {
        return runWithStdin("", args);
    }

    /** A command running in the background (log follows, watches); its output can be read while it runs. */
    record Running(StringWriter out, StringWriter err, java.util.concurrent.CompletableFuture<Result> result) {}

    Running start(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var result = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> execute("", out, err, args),
                task -> io.kplane.api.util.DaemonThreads.newThread("kubectl-lite " + String.join(" ", args), task)
                        .start());
        return new Running(out, err, result);
    }

    Result runWithStdin(String stdin, String... args) {
        return execute(stdin, new StringWriter(), new StringWriter(), args);
    }

    private Result execute(String stdin, StringWriter out, StringWriter err, String... args) {
        String[] full = new String[args.length + 2];
        full[0] = "--server";
        full[1] = server;
        System.arraycopy(args, 0, full, 2, args.length);
        int code = KubectlLite.run(
                full,
                new PrintWriter(out),
                new PrintWriter(err),
                new KubectlLite.Environment(
                        null,
                        Path.of("/nonexistent"),
                        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8))));
        return new Result(code, out.toString(), err.toString());
    }
}
