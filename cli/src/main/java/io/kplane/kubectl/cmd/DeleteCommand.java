package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.json.Json;
import io.kplane.api.meta.DeletionPropagation;
import io.kplane.client.ApiException;
import io.kplane.kubectl.Api;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.KubectlLite;
import io.kplane.kubectl.ResourceRef;
import io.kplane.kubectl.apply.Manifests;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code delete}: by name, {@code -f}, {@code -l} or {@code --all}, with kubectl's cascade and wait. */
@Command(
        name = "delete",
        description = "Delete resources by file names, stdin, resources and names, or by label selector.")
public final class DeleteCommand extends BaseCommand {
    @Parameters(arity = "0..*", paramLabel = "TYPE [NAME...] | TYPE/NAME")
    List<String> args = new ArrayList<>();

    @Option(
            names = {"-f", "--filename"},
            description = "Files containing the resources to delete.")
    List<String> files = new ArrayList<>();

    @Option(
            names = {"-l", "--selector"},
            description = "Label selector.")
    String selector;

    @Option(names = "--all", description = "Delete all resources of the type in the namespace.")
    boolean all;

    @Option(
            names = "--cascade",
            defaultValue = "background",
            arity = "0..1",
            fallbackValue = "background",
            description = "background (default), foreground or orphan.")
    String cascade;

    @Option(
            names = "--wait",
            defaultValue = "true",
            arity = "0..1",
            fallbackValue = "true",
            description = "Wait until the resources are gone (default true).")
    boolean waitForDeletion;

    @Option(names = "--timeout", defaultValue = "60s", description = "How long to wait for deletion.")
    String timeout;

    @Option(names = "--ignore-not-found", description = "Treat \"resource not found\" as a successful delete.")
    boolean ignoreNotFound;

    @Option(names = "--grace-period", defaultValue = "-1", description = "Seconds given to the resource to terminate.")
    int gracePeriod;

    @Override
    public Integer call() {
        String policy =
                switch (cascade.toLowerCase(Locale.ROOT)) {
                    case "background", "true" -> DeletionPropagation.BACKGROUND;
                    case "foreground" -> DeletionPropagation.FOREGROUND;
                    case "orphan", "false" -> DeletionPropagation.ORPHAN;
                    default -> throw new CliException("error: invalid cascade value (" + cascade
                            + "). Must be \"background\", \"foreground\", or \"orphan\"");
                };
        List<ResourceRef> targets = targets();
        ObjectNode options = Json.mapper().createObjectNode();
        options.put("propagationPolicy", policy);
        if (gracePeriod >= 0) {
            options.put("gracePeriodSeconds", gracePeriod);
        }
        int failures = 0;
        List<ResourceRef> deleted = new ArrayList<>();
        for (ResourceRef ref : targets) {
            try {
                api().send("DELETE", ref.path(), Map.of(), options, "application/json");
                deleted.add(ref);
                if (!waitForDeletion) {
                    out().println(display(ref) + " deleted");
                }
            } catch (ApiException e) {
                if (e.isNotFound() && ignoreNotFound) {
                    continue;
                }
                err().println(KubectlLite.serverError(e, null));
                failures++;
            }
        }
        if (waitForDeletion) {
            Instant deadline = Instant.now().plus(Durations.parse(timeout));
            for (ResourceRef ref : deleted) {
                waitGone(ref, deadline);
                out().println(display(ref) + " deleted");
            }
        }
        out().flush();
        return failures == 0 ? 0 : 1;
    }

    private static String display(ResourceRef ref) {
        return ResourceRef.qualifiedKind(ref.type()) + " \"" + ref.name() + "\"";
    }

    private List<ResourceRef> targets() {
        List<ResourceRef> targets = new ArrayList<>();
        if (!files.isEmpty()) {
            for (Manifests.Manifest m : Manifests.read(files, false, stdin())) {
                ResourceType type = ApplyCommand.typeOf(m.object(), m.source());
                String ns = m.object().path("metadata").path("namespace").asText(namespace());
                targets.add(new ResourceRef(
                        type,
                        type.namespaced() ? ns : null,
                        m.object().path("metadata").path("name").asText()));
            }
            return targets;
        }
        if (args.isEmpty()) {
            throw new CliException("error: You must provide one or more resources by argument or filename.");
        }
        List<ResourceRef> refs = ResourceRef.parse(args, namespace());
        for (ResourceRef ref : refs) {
            if (ref.name() != null) {
                targets.add(ref);
            } else if (all || selector != null) {
                JsonNode list = api().get(ref.collectionPath(), Api.query("labelSelector", selector), Api.JSON);
                for (JsonNode item : list.path("items")) {
                    targets.add(new ResourceRef(
                            ref.type(),
                            ref.namespace(),
                            item.path("metadata").path("name").asText()));
                }
            } else {
                throw new CliException("error: resource(s) were provided, but no name was specified");
            }
        }
        if (targets.isEmpty() && (all || selector != null)) {
            err().println("No resources found");
        }
        return targets;
    }

    private void waitGone(ResourceRef ref, Instant deadline) {
        while (api().getOrNull(ref.path()) != null) {
            if (Instant.now().isAfter(deadline)) {
                throw new CliException("error: timed out waiting for the condition on "
                        + ref.type().resource() + "/" + ref.name());
            }
            sleep(Duration.ofMillis(100));
        }
    }

    static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("error: interrupted");
        }
    }
}
