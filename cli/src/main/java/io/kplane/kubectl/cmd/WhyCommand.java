package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.ResourceRef;
import io.kplane.kubectl.print.Output;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code why KIND/NAME}: the object's last syncs across controllers, newest first, from the
 * SyncRecords the components persist (docs/lens.md): when, which component and controller, what put the
 * key in the queue (triggers), what the controller saw, what it decided and why, what it wrote (with
 * the resourceVersion returned or the error), the events it emitted, how long it took and the requeue.
 */
@Command(
        name = "why",
        description = "Show the last controller syncs of an object: triggers, what was seen, decided and written.")
public final class WhyCommand extends BaseCommand {
    @Parameters(arity = "1..2", paramLabel = "KIND/NAME | KIND NAME")
    List<String> args;

    @Option(
            names = {"-o", "--output"},
            description = "json|yaml: print the SyncRecords.")
    String output;

    @Override
    public Integer call() {
        if (output != null && !output.equals("json") && !output.equals("yaml")) {
            throw new CliException("error: unable to match a printer suitable for the output format \"" + output
                    + "\", allowed formats are: json,yaml");
        }
        List<ResourceRef> refs = ResourceRef.parse(args, namespace());
        if (refs.size() != 1 || refs.get(0).name() == null) {
            throw new CliException("error: why needs one object: KIND/NAME (e.g. job/pi) or KIND NAME");
        }
        ResourceRef ref = refs.get(0);
        JsonNode object = api().get(ref.path());
        SyncHistory history = SyncHistory.of(api(), object);
        if (output != null) {
            JsonNode list = Output.list(history.records());
            out().print(output.equals("json") ? Output.json(list) : Output.yaml(list));
            out().flush();
            return 0;
        }
        out().print(render(object, history, Instant.now()));
        out().flush();
        return 0;
    }

    static String render(JsonNode object, SyncHistory history, Instant now) {
        JsonNode meta = object.path("metadata");
        String ns = meta.path("namespace").asText("");
        String kind = object.path("kind").asText();
        String name = (ns.isEmpty() ? "" : ns + "/") + meta.path("name").asText();
        StringBuilder out = new StringBuilder();
        if (history.entries().isEmpty()) {
            out.append("No syncs recorded for ")
                    .append(kind)
                    .append(' ')
                    .append(name)
                    .append(" (components record them with --lens, the default; records older than 1h are dropped).\n");
            return out.toString();
        }
        out.append(kind)
                .append(' ')
                .append(name)
                .append(": ")
                .append(history.entries().size())
                .append(" syncs by ")
                .append(history.records().size())
                .append(history.records().size() == 1 ? " controller" : " controllers")
                .append(", newest first\n");
        for (JsonNode e : history.entries()) {
            out.append('\n');
            out.append(SyncEntryFormat.age(e, now))
                    .append(" ago  ")
                    .append(e.path("time").asText())
                    .append("  ")
                    .append(SyncEntryFormat.who(e));
            String duration = SyncEntryFormat.duration(e);
            if (!duration.isEmpty()) {
                out.append("  took ").append(duration);
            }
            out.append('\n');
            field(out, "Triggers", List.of(SyncEntryFormat.triggers(e)));
            field(out, "Saw", List.of(SyncEntryFormat.saw(e)));
            field(out, "Decided", List.of(SyncEntryFormat.decision(e)));
            List<String> writes = SyncEntryFormat.writes(e);
            field(out, "Wrote", writes.isEmpty() ? List.of("<none>") : writes);
            List<String> events = SyncEntryFormat.events(e);
            field(out, "Events", events.isEmpty() ? List.of("<none>") : events);
            field(out, "Requeue", List.of(SyncEntryFormat.requeue(e)));
            String error = e.path("error").asText("");
            if (!error.isEmpty()) {
                field(out, "Error", List.of(error));
            }
        }
        return out.toString();
    }

    private static void field(StringBuilder out, String label, List<String> lines) {
        String pad = " ".repeat(11 - label.length() - 1);
        for (int i = 0; i < lines.size(); i++) {
            out.append("  ")
                    .append(i == 0 ? label + ":" + pad : " ".repeat(11))
                    .append(lines.get(i))
                    .append('\n');
        }
    }
}
