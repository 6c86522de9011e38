package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.ResourceTypes;
import io.kplane.kubectl.Api;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.ResourceRef;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code logs POD | job/NAME [-c CONTAINER] [-f] [--tail N] [--previous] [--timestamps]}. */
@Command(name = "logs", description = "Print the logs for a container in a pod or a job.")
public final class LogsCommand extends BaseCommand {
    @Parameters(arity = "1", paramLabel = "POD | TYPE/NAME")
    String target;

    @Option(
            names = {"-c", "--container"},
            description = "Print the logs of this container.")
    String container;

    @Option(
            names = {"-f", "--follow"},
            description = "Stream the logs.")
    boolean follow;

    @Option(names = "--tail", defaultValue = "-1", description = "Lines of recent log to display (-1: all).")
    long tail;

    @Option(
            names = {"-p", "--previous"},
            description = "Print the logs of the previous instance of the container.")
    boolean previous;

    @Option(names = "--timestamps", description = "Include timestamps on each line.")
    boolean timestamps;

    @Option(names = "--pod-running-timeout", defaultValue = "20s", description = "How long to wait for a pod.")
    String podRunningTimeout;

    @Override
    public Integer call() {
        JsonNode pod = pod();
        String podName = pod.path("metadata").path("name").asText();
        String c = container;
        List<String> names = new ArrayList<>();
        pod.path("spec")
                .path("containers")
                .forEach(x -> names.add(x.path("name").asText()));
        if (c == null) {
            if (names.isEmpty()) {
                throw new CliException("error: pod " + podName + " has no containers");
            }
            c = names.get(0);
            if (names.size() > 1) {
                err().println("Defaulted container \"" + c + "\" out of: " + String.join(", ", names));
            }
        }
        Map<String, String> q = new LinkedHashMap<>();
        q.put("container", c);
        if (follow) {
            q.put("follow", "true");
        }
        if (tail >= 0) {
            q.put("tailLines", Long.toString(tail));
        }
        if (previous) {
            q.put("previous", "true");
        }
        if (timestamps) {
            q.put("timestamps", "true");
        }
        String path = ResourceRef.collectionPath(ResourceTypes.PODS, namespace()) + "/" + podName + "/log";
        try (InputStream in = api().stream(path, q, "application/json, */*")) {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out().print(new String(buffer, 0, n, StandardCharsets.UTF_8));
                out().flush();
            }
        } catch (IOException e) {
            // the stream closed: done
        }
        out().flush();
        return 0;
    }

    private JsonNode pod() {
        if (!target.contains("/")) {
            return api().get(ResourceRef.collectionPath(ResourceTypes.PODS, namespace()) + "/" + target);
        }
        ResourceRef ref = ResourceRef.parse(List.of(target), namespace()).get(0);
        if (ref.type().equals(ResourceTypes.PODS)) {
            return api().get(ref.path());
        }
        JsonNode owner = api().get(ref.path());
        JsonNode selector = ref.type().equals(ResourceTypes.JOBS)
                ? owner.path("spec").path("selector").path("matchLabels")
                : null;
        if (selector == null || selector.isEmpty()) {
            throw new CliException("error: cannot get the logs of " + ref.type().resource() + "/" + ref.name()
                    + ": it selects no pods");
        }
        List<String> parts = new ArrayList<>();
        selector.fields()
                .forEachRemaining(e -> parts.add(e.getKey() + "=" + e.getValue().asText()));
        Instant deadline = Instant.now().plus(Durations.parse(podRunningTimeout));
        while (true) {
            JsonNode pods = api().get(
                            ResourceRef.collectionPath(ResourceTypes.PODS, namespace()),
                            Api.query("labelSelector", String.join(",", parts)),
                            Api.JSON);
            List<JsonNode> candidates = new ArrayList<>();
            pods.path("items").forEach(candidates::add);
            if (!candidates.isEmpty()) {
                candidates.sort(Comparator.comparingInt(LogsCommand::rank)
                        .thenComparing(p ->
                                p.path("metadata").path("creationTimestamp").asText()));
                return candidates.get(0);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new CliException("error: timed out waiting for the condition");
            }
            DeleteCommand.sleep(Duration.ofMillis(200));
        }
    }

    /** Lower is better: a pod on a node, running, ready (like kubectl's choice of the pod to log). */
    private static int rank(JsonNode pod) {
        int rank = 0;
        if (pod.path("spec").path("nodeName").asText("").isEmpty()) {
            rank += 4;
        }
        if (!"Running".equals(pod.path("status").path("phase").asText())) {
            rank += 2;
        }
        return rank;
    }
}
