package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.json.Json;
import io.kplane.client.ApiException;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.KubectlLite;
import io.kplane.kubectl.ResourceRef;
import io.kplane.kubectl.apply.Manifests;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code create -f FILE} and {@code create job NAME --from=cronjob/NAME | --image=IMAGE -- COMMAND...}. */
@Command(
        name = "create",
        description = "Create a resource from a file or from stdin.",
        subcommands = CreateCommand.Job.class)
public final class CreateCommand extends BaseCommand {
    @Option(
            names = {"-f", "--filename"},
            description = "Files, directories or - for stdin.")
    List<String> files = new ArrayList<>();

    @Option(
            names = {"-R", "--recursive"},
            description = "Process directories recursively.")
    boolean recursive;

    @Override
    public Integer call() {
        if (files.isEmpty()) {
            throw new CliException("error: must specify one of -f and -k");
        }
        int failures = 0;
        for (Manifests.Manifest m : Manifests.read(files, recursive, stdin())) {
            ObjectNode manifest = (ObjectNode) m.object();
            ResourceType type = ApplyCommand.typeOf(manifest, m.source());
            String ns = manifest.path("metadata").path("namespace").asText(namespace());
            try {
                JsonNode created = api().send(
                                "POST",
                                ResourceRef.collectionPath(type, type.namespaced() ? ns : null),
                                Map.of("fieldManager", "kubectl-create", "fieldValidation", "Strict"),
                                manifest,
                                "application/json");
                out().println(ResourceRef.qualifiedKind(type) + "/"
                        + created.path("metadata").path("name").asText() + " created");
            } catch (ApiException e) {
                err().println(KubectlLite.serverError(
                        e, e.code() == 422 ? null : "error when creating \"" + m.source() + "\""));
                failures++;
            }
        }
        out().flush();
        return failures == 0 ? 0 : 1;
    }

    @Command(name = "job", description = "Create a job with the specified name.")
    public static final class Job extends BaseCommand {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Parameters(index = "1..*", paramLabel = "COMMAND", description = "Command and arguments (after --).")
        List<String> command = new ArrayList<>();

        @Option(names = "--from", description = "The resource to create the job from, e.g. cronjob/hello.")
        String from;

        @Option(names = "--image", description = "Image to run.")
        String image;

        @Override
        public Integer call() {
            ObjectNode job;
            if (from != null) {
                job = fromCronJob();
            } else if (image != null) {
                job = fromImage();
            } else {
                throw new CliException("error: either --image or --from must be specified");
            }
            JsonNode created = api().send(
                            "POST",
                            ResourceRef.collectionPath(ResourceTypes.JOBS, namespace()),
                            Map.of("fieldManager", "kubectl-create", "fieldValidation", "Strict"),
                            job,
                            "application/json");
            out().println("job.batch/" + created.path("metadata").path("name").asText() + " created");
            out().flush();
            return 0;
        }

        private ObjectNode fromCronJob() {
            int slash = from.indexOf('/');
            if (slash < 0 || !ResourceRef.type(from.substring(0, slash)).equals(ResourceTypes.CRONJOBS)) {
                throw new CliException("error: from must be an existing cronjob: " + from);
            }
            ResourceRef cronRef = new ResourceRef(ResourceTypes.CRONJOBS, namespace(), from.substring(slash + 1));
            JsonNode cronJob = api().get(cronRef.path());
            JsonNode template = cronJob.path("spec").path("jobTemplate");
            ObjectNode job = Json.mapper().createObjectNode();
            job.put("apiVersion", "batch/v1").put("kind", "Job");
            ObjectNode meta = job.putObject("metadata");
            meta.put("name", name);
            if (template.path("metadata").has("labels")) {
                meta.set("labels", template.path("metadata").path("labels"));
            }
            ObjectNode annotations = meta.putObject("annotations");
            if (template.path("metadata").path("annotations").isObject()) {
                annotations.setAll((ObjectNode) template.path("metadata").path("annotations"));
            }
            annotations.put("cronjob.kubernetes.io/instantiate", "manual");
            meta.putArray("ownerReferences")
                    .addObject()
                    .put("apiVersion", "batch/v1")
                    .put("kind", "CronJob")
                    .put("name", cronJob.path("metadata").path("name").asText())
                    .put("uid", cronJob.path("metadata").path("uid").asText())
                    .put("controller", true);
            job.set("spec", template.path("spec").deepCopy());
            return job;
        }

        private ObjectNode fromImage() {
            ObjectNode job = Json.mapper().createObjectNode();
            job.put("apiVersion", "batch/v1").put("kind", "Job");
            job.putObject("metadata").put("name", name);
            ObjectNode podSpec = job.putObject("spec").putObject("template").putObject("spec");
            ObjectNode container =
                    podSpec.putArray("containers").addObject().put("name", name).put("image", image);
            if (!command.isEmpty()) {
                command.forEach(container.putArray("command")::add);
            }
            podSpec.put("restartPolicy", "Never");
            return job;
        }
    }
}
