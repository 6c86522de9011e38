package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.ResourceTypes;
import io.kplane.kubectl.Api;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.ResourceRef;
import io.kplane.kubectl.print.Output;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code describe job|pod|cronjob|node NAME}: kubectl's layout, with the object's events. */
@Command(name = "describe", description = "Show details of a specific resource or group of resources.")
public final class DescribeCommand extends BaseCommand {
    @Parameters(arity = "1..*", paramLabel = "TYPE [NAME...] | TYPE/NAME")
    List<String> args;

    @Option(
            names = {"-l", "--selector"},
            description = "Label selector.")
    String selector;

    @Override
    public Integer call() {
        List<ResourceRef> refs = ResourceRef.parse(args, namespace());
        List<JsonNode> objects = new ArrayList<>();
        for (ResourceRef ref : refs) {
            if (ref.name() == null) {
                JsonNode list = api().get(ref.collectionPath(), Api.query("labelSelector", selector), Api.JSON);
                list.path("items").forEach(objects::add);
            } else {
                objects.add(api().get(ref.path()));
            }
        }
        if (objects.isEmpty()) {
            err().println("No resources found in " + namespace() + " namespace.");
            return 0;
        }
        boolean first = true;
        for (JsonNode obj : objects) {
            if (!first) {
                out().println();
                out().println();
            }
            first = false;
            out().print(describe(obj, refs.get(0)));
        }
        out().flush();
        return 0;
    }

    private String describe(JsonNode obj, ResourceRef ref) {
        String kind = obj.path("kind").asText(ref.type().kind());
        Describer d = new Describer(Instant.now(), ZoneId.systemDefault());
        List<JsonNode> events = events(obj, kind);
        if (kind.equals("Job") || kind.equals("Pod") || kind.equals("CronJob")) {
            String text =
                    switch (kind) {
                        case "Job" -> d.job(obj, events);
                        case "CronJob" -> d.cronJob(obj, events);
                        default -> d.pod(obj, events);
                    };
            return LastDecisions.insertBeforeEvents(text, SyncHistory.orEmpty(api(), obj), Instant.now());
        }
        return switch (kind) {
            case "Job" -> d.job(obj, events);
            case "CronJob" -> d.cronJob(obj, events);
            case "Pod" -> d.pod(obj, events);
            case "Node" -> d.node(obj, lease(obj), nodePods(obj), events);
            case "ConfigMap" -> new ManifestDescriber(d).configMap(obj, events);
            case "Secret" -> new ManifestDescriber(d).secret(obj);
            case "ServiceAccount" -> new ManifestDescriber(d).serviceAccount(obj, events);
            case "PersistentVolumeClaim" -> new ManifestDescriber(d).claim(obj, claimUsers(obj), events);
            case "PersistentVolume" -> new ManifestDescriber(d).volume(obj, events);
            case "Role", "ClusterRole" -> new ManifestDescriber(d).role(obj);
            case "RoleBinding", "ClusterRoleBinding" -> new ManifestDescriber(d).binding(obj);
            default -> Output.yaml(obj);
        };
    }

    private JsonNode lease(JsonNode node) {
        return api().getOrNull(ResourceRef.collectionPath(ResourceTypes.LEASES, "kube-node-lease") + "/"
                + node.path("metadata").path("name").asText());
    }

    /** Pods of the claim's namespace that mount it ("Used By"). */
    private List<String> claimUsers(JsonNode pvc) {
        String ns = pvc.path("metadata").path("namespace").asText();
        String name = pvc.path("metadata").path("name").asText();
        List<String> users = new ArrayList<>();
        api().get(ResourceRef.collectionPath(ResourceTypes.PODS, ns), Map.of(), Api.JSON)
                .path("items")
                .forEach(pod -> {
                    for (JsonNode v : pod.path("spec").path("volumes")) {
                        if (name.equals(v.path("persistentVolumeClaim")
                                .path("claimName")
                                .asText())) {
                            users.add(pod.path("metadata").path("name").asText());
                            break;
                        }
                    }
                });
        users.sort(String::compareTo);
        return users;
    }

    /** The node's pods that have not finished, as kubectl selects them. */
    private List<JsonNode> nodePods(JsonNode node) {
        List<JsonNode> pods = new ArrayList<>();
        api().get(
                        ResourceRef.collectionPath(ResourceTypes.PODS, null),
                        Map.of(
                                "fieldSelector",
                                "spec.nodeName="
                                        + node.path("metadata").path("name").asText()
                                        + ",status.phase!=Failed,status.phase!=Succeeded"),
                        Api.JSON)
                .path("items")
                .forEach(pods::add);
        return pods;
    }

    /** The object's events, selected like kubectl does (by involvedObject name, namespace, kind and uid). */
    private List<JsonNode> events(JsonNode obj, String kind) {
        JsonNode meta = obj.path("metadata");
        String ns = meta.path("namespace").asText("");
        StringBuilder fs = new StringBuilder("involvedObject.name=")
                .append(meta.path("name").asText());
        if (!ns.isEmpty()) {
            fs.append(",involvedObject.namespace=").append(ns);
        }
        if (!kind.equals("Pod")) {
            fs.append(",involvedObject.kind=").append(kind);
        }
        fs.append(",involvedObject.uid=").append(meta.path("uid").asText());
        String path = ResourceRef.collectionPath(ResourceTypes.EVENTS, ns.isEmpty() ? "default" : ns);
        List<JsonNode> events = new ArrayList<>();
        try {
            api().get(path, Map.of("fieldSelector", fs.toString(), "limit", "500"), Api.JSON)
                    .path("items")
                    .forEach(events::add);
        } catch (RuntimeException e) {
            // like kubectl: events are best effort
        }
        return events;
    }
}
