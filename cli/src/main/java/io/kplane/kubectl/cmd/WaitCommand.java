package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.ResourceRef;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** {@code wait TYPE/NAME --for=condition=complete|failed|delete [--timeout=30s]}. */
@Command(name = "wait", description = "Wait for a specific condition on one or many resources.")
public final class WaitCommand extends BaseCommand {
    @Parameters(arity = "1..*", paramLabel = "TYPE/NAME | TYPE NAME")
    List<String> args;

    @Option(names = "--for", required = true, description = "condition=NAME[=VALUE] or delete.")
    String condition;

    @Option(names = "--timeout", defaultValue = "30s", description = "How long to wait (default 30s).")
    String timeout;

    @Override
    public Integer call() {
        Instant deadline = Instant.now().plus(Durations.parse(timeout));
        boolean forDelete = condition.equals("delete");
        String type;
        String expected;
        if (forDelete) {
            type = null;
            expected = null;
        } else if (condition.startsWith("condition=")) {
            String spec = condition.substring("condition=".length());
            int eq = spec.indexOf('=');
            type = eq < 0 ? spec : spec.substring(0, eq);
            expected = eq < 0 ? "True" : spec.substring(eq + 1);
        } else {
            throw new CliException("error: unrecognized condition: \"" + condition + "\"");
        }
        for (ResourceRef ref : ResourceRef.parse(args, namespace())) {
            if (ref.name() == null) {
                throw new CliException("error: resource name is required");
            }
            while (true) {
                JsonNode obj = forDelete ? api().getOrNull(ref.path()) : api().get(ref.path());
                if (forDelete ? obj == null : met(obj, type, expected)) {
                    out().println(ref.display() + " condition met");
                    out().flush();
                    break;
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new CliException("error: timed out waiting for the condition on " + ref.type().resource()
                            + "/" + ref.name());
                }
                DeleteCommand.sleep(Duration.ofMillis(100));
            }
        }
        return 0;
    }

    private static boolean met(JsonNode obj, String type, String expected) {
        for (JsonNode c : obj.path("status").path("conditions")) {
            if (c.path("type").asText().toLowerCase(Locale.ROOT).equals(type.toLowerCase(Locale.ROOT))) {
                return c.path("status").asText().equalsIgnoreCase(expected);
            }
        }
        return false;
    }
}
