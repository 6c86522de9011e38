package io.kplane.kubectl;

import io.kplane.api.meta.Status;
import io.kplane.client.ApiConnectionException;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClientException;
import io.kplane.kubectl.cmd.ApiResourcesCommand;
import io.kplane.kubectl.cmd.ApplyCommand;
import io.kplane.kubectl.cmd.ClusterInfoCommand;
import io.kplane.kubectl.cmd.CompletionCommand;
import io.kplane.kubectl.cmd.CreateCommand;
import io.kplane.kubectl.cmd.DeleteCommand;
import io.kplane.kubectl.cmd.DescribeCommand;
import io.kplane.kubectl.cmd.GetCommand;
import io.kplane.kubectl.cmd.LogsCommand;
import io.kplane.kubectl.cmd.PatchCommand;
import io.kplane.kubectl.cmd.SuspendCommand;
import io.kplane.kubectl.cmd.VersionCommand;
import io.kplane.kubectl.cmd.WaitCommand;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * kubectl-lite: the kplane CLI. Commands and output follow kubectl; errors are one line on stderr
 * with a non-zero exit code.
 */
public final class KubectlLite implements Runnable {
    /** What the process environment provides; tests substitute their own. */
    public record Environment(String kubeconfigEnv, Path home, InputStream stdin) {
        static Environment system() {
            return new Environment(System.getenv("KUBECONFIG"), Path.of(System.getProperty("user.home")), System.in);
        }
    }

    /**
     * The subcommands in help order. They are added to picocli by name, and only the one a command line
     * names: building every command's model by reflection is a good part of start-up time.
     */
    private static final Map<String, Class<?>> COMMANDS = commands();

    /** Connection options that take a value: what follows them is not the command name. */
    static final Set<String> OPTIONS_WITH_VALUES = Set.of("--server", "--token", "--kubeconfig", "-n", "--namespace");

    /** This command line's environment: set per run, so concurrent runs (tests) never share one. */
    Environment environment = Environment.system();

    public static void main(String[] args) {
        System.exit(run(
                args,
                // UTF-8 like kubectl (Go writes UTF-8), whatever the JVM's default charset is
                new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8),
                Environment.system()));
    }

    static {
        PicocliConverters.excludeUnused();
    }

    /** Runs one command line; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Environment env) {
        QuickGet quick = QuickGet.parse(args);
        if (quick != null) {
            return quick.run(out, err, env);
        }
        if (HelpTopic.requested(args)) {
            return HelpTopic.print(args, commandLine(), out, err);
        }
        CommandLine cli = commandLine(args);
        ((KubectlLite) cli.getCommand()).environment = env;
        cli.setOut(out);
        cli.setErr(err);
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    private static Map<String, Class<?>> commands() {
        Map<String, Class<?>> m = new LinkedHashMap<>();
        m.put("get", GetCommand.class);
        m.put("describe", DescribeCommand.class);
        m.put("apply", ApplyCommand.class);
        m.put("create", CreateCommand.class);
        m.put("delete", DeleteCommand.class);
        m.put("logs", LogsCommand.class);
        m.put("patch", PatchCommand.class);
        m.put("wait", WaitCommand.class);
        m.put("suspend", SuspendCommand.class);
        m.put("resume", SuspendCommand.Resume.class);
        m.put("clock", io.kplane.kubectl.clock.ClockCommand.class);
        m.put("cronjob", io.kplane.kubectl.clock.CronJobCommand.class);
        m.put("why", io.kplane.kubectl.cmd.WhyCommand.class);
        m.put("version", VersionCommand.class);
        m.put("api-resources", ApiResourcesCommand.class);
        m.put("cluster-info", ClusterInfoCommand.class);
        m.put("completion", CompletionCommand.class);
        return m;
    }

    /** Every command (help, completion). */
    public static CommandLine commandLine() {
        return commandLine(COMMANDS.keySet());
    }

    /** Just what {@code args} runs; every command when it names none we know (help, errors, completion). */
    static CommandLine commandLine(String[] args) {
        String name = commandName(args);
        return name == null || name.equals("completion") ? commandLine() : commandLine(Set.of(name));
    }

    static String commandName(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (OPTIONS_WITH_VALUES.contains(a)) {
                i++;
            } else if (!a.startsWith("-")) {
                return COMMANDS.containsKey(a) ? a : null;
            }
        }
        return null;
    }

    private static CommandLine commandLine(Set<String> names) {
        CommandLine cli = new CommandLine(new KubectlLite().rootSpec());
        for (Map.Entry<String, Class<?>> command : COMMANDS.entrySet()) {
            if (names.contains(command.getKey())) {
                CommandLine sub = command.getValue() == GetCommand.class
                        ? new CommandLine(GetCommand.spec())
                        : new CommandLine(command.getValue());
                addHelpOption(sub);
                cli.addSubcommand(command.getKey(), sub);
            }
        }
        cli.setExecutionExceptionHandler(new ExecutionErrors());
        cli.setParameterExceptionHandler(new ParameterErrors());
        return cli;
    }

    /**
     * {@code -h, --help} on a subcommand and its own subcommands, as kubectl has on every command: prints
     * that command's usage and exits 0, even when its required parameters are missing ({@code get --help}
     * printed "Missing required parameter" before). Added here rather than through a mixin in each class so
     * that no command can lack it and the root keeps its standard {@code -h}/{@code -V}.
     */
    static void addHelpOption(CommandLine command) {
        command.getCommandSpec()
                .addOption(OptionSpec.builder("-h", "--help")
                        .usageHelp(true)
                        .type(boolean.class)
                        .arity("0")
                        .description("Show this help message and exit.")
                        .build());
        for (CommandLine sub : command.getSubcommands().values()) {
            addHelpOption(sub);
        }
    }

    /*
     * The two handlers are named classes, not lambdas: a lambda implementing one of picocli's interfaces
     * (class files of Java 5) makes the class-data archive dump link that interface early, and an old
     * class linked at dump time is left out of the archive ("Old class has been linked"), with the
     * picocli classes built on it and the lambda itself: six classes loaded from the jar on every run.
     */

    /** An exception from a command: its one line, kubectl's wording. */
    private static final class ExecutionErrors implements CommandLine.IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception e, CommandLine commandLine, ParseResult parseResult) {
            return failed(e, commandLine.getErr());
        }
    }

    /** Prints a command's failure as its one line; returns the exit code. */
    static int failed(Exception e, PrintWriter err) {
        err.println(message(e));
        return e instanceof CliException c ? c.exitCode() : 1;
    }

    /** A command line picocli cannot parse: the error and where to find the usage, as kubectl. */
    private static final class ParameterErrors implements CommandLine.IParameterExceptionHandler {
        @Override
        public int handleParseException(CommandLine.ParameterException e, String[] args) {
            PrintWriter err = e.getCommandLine().getErr();
            err.println("error: " + e.getMessage());
            err.println("See '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for usage.");
            return 1;
        }
    }

    /** The one line printed for a failure, worded like kubectl's. */
    static String message(Exception e) {
        if (e instanceof CliException) {
            return e.getMessage();
        }
        if (e instanceof ApiException api) {
            return serverError(api, null);
        }
        if (e instanceof ApiConnectionException c) {
            return "cannot reach the apiserver at " + c.url() + ": " + rootMessage(c);
        }
        if (e instanceof KubeClientException) {
            return "error: " + e.getMessage();
        }
        return "error: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }

    /** {@code Error from server (Reason): message}, or the Invalid form with each cause. */
    public static String serverError(ApiException e, String context) {
        Status status = e.status();
        if (e.code() == 422
                && status != null
                && status.details() != null
                && status.details().causes() != null
                && !status.details().causes().isEmpty()) {
            var causes = status.details().causes();
            String kind =
                    status.details().kind() == null ? "" : status.details().kind();
            StringBuilder sb = new StringBuilder("The ")
                    .append(kind)
                    .append(" \"")
                    .append(
                            status.details().name() == null
                                    ? ""
                                    : status.details().name())
                    .append("\" is invalid: ");
            if (causes.size() == 1) {
                var c = causes.get(0);
                sb.append(c.field() == null ? "" : c.field() + ": ").append(c.message());
            } else {
                for (var c : causes) {
                    sb.append("\n* ")
                            .append(c.field() == null ? "" : c.field() + ": ")
                            .append(c.message());
                }
            }
            return sb.toString();
        }
        String reason = e.reason() == null || e.reason().isEmpty() ? "Unknown" : e.reason();
        return "Error from server (" + reason + "): " + (context == null ? "" : context + ": ") + e.getMessage();
    }

    private static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
    }

    private CommandSpec spec;

    /**
     * The root's model, built in code rather than by reflection over annotations (as {@code get}'s,
     * {@link GetCommand#spec()}): every run builds it, and picocli's reading of annotations — one dynamic
     * proxy class per annotation type, which no class-data archive of JDK 17 can hold — was the largest
     * part of a short command's CPU. The options, texts and order are the annotated model's
     * ({@code mixinStandardHelpOptions}, the connection options): {@code HelpTest} compares the help and
     * completion texts with the recorded ones.
     */
    private CommandSpec rootSpec() {
        spec = CommandSpec.wrapWithoutInspection(this);
        spec.name("kubectl-lite");
        spec.versionProvider(new VersionCommand.Provider());
        spec.usageMessage().description("kubectl-lite controls the kplane control plane.");
        spec.addOption(OptionSpec.builder("-h", "--help")
                .usageHelp(true)
                .type(boolean.class)
                .description("Show this help message and exit.")
                .build());
        spec.addOption(OptionSpec.builder("-V", "--version")
                .versionHelp(true)
                .type(boolean.class)
                .description("Print version information and exit.")
                .build());
        GlobalOptions.addTo(spec);
        return spec;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
