package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.client.ApiException;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.KubectlLite;
import io.kplane.kubectl.ResourceRef;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code patch TYPE NAME -p PATCH [--type strategic|merge|json]}. */
@Command(
        name = "patch",
        description =
                "Update fields of a resource using strategic merge patch, a JSON merge patch, " + "or a JSON patch.")
public final class PatchCommand extends BaseCommand {
    @Parameters(arity = "1..2", paramLabel = "TYPE NAME | TYPE/NAME")
    List<String> args;

    @Option(
            names = {"-p", "--patch"},
            required = true,
            description = "The patch to apply (JSON or YAML).")
    String patch;

    @Option(names = "--type", defaultValue = "strategic", description = "strategic (default), merge or json.")
    String type;

    @Override
    public Integer call() {
        String contentType =
                switch (type) {
                    case "strategic" -> "application/strategic-merge-patch+json";
                    case "merge" -> "application/merge-patch+json";
                    case "json" -> "application/json-patch+json";
                    default -> throw new CliException(
                            "error: --type must be one of [json merge strategic], not \"" + type + "\"");
                };
        List<ResourceRef> refs = ResourceRef.parse(args, namespace());
        if (refs.size() != 1 || refs.get(0).name() == null) {
            throw new CliException("error: exactly one NAME is required, got " + refs.size());
        }
        ResourceRef ref = refs.get(0);
        JsonNode before = api().get(ref.path());
        JsonNode after;
        try {
            after = api().call(
                            "PATCH",
                            ref.path(),
                            Map.of("fieldManager", "kubectl-patch"),
                            patch.getBytes(StandardCharsets.UTF_8),
                            contentType,
                            "application/json");
        } catch (ApiException e) {
            if (e.code() == 422) {
                throw new CliException("The request is invalid: " + e.getMessage());
            }
            throw new CliException(KubectlLite.serverError(e, null));
        }
        out().println(ref.display() + (Objects.equals(before, after) ? " patched (no change)" : " patched"));
        out().flush();
        return 0;
    }
}
