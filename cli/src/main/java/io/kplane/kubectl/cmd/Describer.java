package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.util.HumanDuration;
import io.kplane.api.util.Timestamps;
import io.kplane.kubectl.print.TabWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * kubectl's describe layout for jobs, pods, cronjobs and nodes: tab-aligned {@code Key:  value}
 * sections (Go tabwriter, padding 2), multi-line labels, the pod template, and the Events table.
 */
final class Describer {
    private static final DateTimeFormatter RFC1123Z =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss Z", Locale.ENGLISH);
    private static final String L1 = "  ";
    private static final String L2 = "    ";

    private final TabWriter w = TabWriter.forDescribe();
    private final Instant now;
    private final ZoneId zone;

    Describer(Instant now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    String job(JsonNode job, List<JsonNode> events) {
        JsonNode meta = job.path("metadata");
        JsonNode spec = job.path("spec");
        JsonNode status = job.path("status");
        kv("", "Name", meta.path("name").asText());
        kv("", "Namespace", meta.path("namespace").asText());
        kv("", "Selector", selector(spec.path("selector")));
        labels("", "Labels", meta.path("labels"));
        labels("", "Annotations", meta.path("annotations"));
        controlledBy(meta);
        kv("", "Parallelism", spec.path("parallelism").asText("<unset>"));
        kv("", "Completions", spec.has("completions") ? spec.path("completions").asText() : "<unset>");
        kv("", "Completion Mode", spec.path("completionMode").asText("NonIndexed"));
        kv("", "Suspend", Boolean.toString(spec.path("suspend").asBoolean(false)));
        kv("", "Backoff Limit", spec.path("backoffLimit").asText("6"));
        if (spec.has("ttlSecondsAfterFinished")) {
            kv(
                    "",
                    "TTL Seconds After Finished",
                    spec.path("ttlSecondsAfterFinished").asText());
        }
        Instant start = time(status.path("startTime"));
        Instant completed = time(status.path("completionTime"));
        if (start != null) {
            kv("", "Start Time", date(start));
        }
        if (completed != null) {
            kv("", "Completed At", date(completed));
        }
        if (start != null && completed != null) {
            kv("", "Duration", HumanDuration.format(Duration.between(start, completed)));
        }
        if (spec.has("activeDeadlineSeconds")) {
            kv("", "Active Deadline Seconds", spec.path("activeDeadlineSeconds").asText() + "s");
        }
        // kubectl shows the ready count only when the controller reports one
        kv(
                "",
                "Pods Statuses",
                status.path("active").asLong() + " Active"
                        + (status.has("ready") ? " (" + status.path("ready").asLong() + " Ready)" : "")
                        + " / " + status.path("succeeded").asLong() + " Succeeded / "
                        + status.path("failed").asLong()
                        + " Failed");
        if ("Indexed".equals(spec.path("completionMode").asText())) {
            kv("", "Completed Indexes", status.path("completedIndexes").asText("<none>"));
        }
        podTemplate(spec.path("template"));
        events(events);
        return w.flush();
    }

    String cronJob(JsonNode cronJob, List<JsonNode> events) {
        JsonNode meta = cronJob.path("metadata");
        JsonNode spec = cronJob.path("spec");
        JsonNode jobSpec = spec.path("jobTemplate").path("spec");
        kv("", "Name", meta.path("name").asText());
        kv("", "Namespace", meta.path("namespace").asText());
        labels("", "Labels", meta.path("labels"));
        labels("", "Annotations", meta.path("annotations"));
        kv("", "Schedule", spec.path("schedule").asText());
        // kubectl 1.32's describe does not show spec.timeZone either
        kv("", "Concurrency Policy", spec.path("concurrencyPolicy").asText("Allow"));
        kv("", "Suspend", spec.path("suspend").asBoolean(false) ? "True" : "False");
        kv(
                "",
                "Successful Job History Limit",
                spec.path("successfulJobsHistoryLimit").asText("<unset>"));
        kv("", "Failed Job History Limit", spec.path("failedJobsHistoryLimit").asText("<unset>"));
        kv(
                "",
                "Starting Deadline Seconds",
                spec.has("startingDeadlineSeconds")
                        ? spec.path("startingDeadlineSeconds").asText() + "s"
                        : "<unset>");
        kv("", "Selector", jobSpec.has("selector") ? selector(jobSpec.path("selector")) : "<unset>");
        kv("", "Parallelism", jobSpec.path("parallelism").asText("<unset>"));
        kv("", "Completions", jobSpec.path("completions").asText("<unset>"));
        if (jobSpec.has("activeDeadlineSeconds")) {
            kv(
                    "",
                    "Active Deadline Seconds",
                    jobSpec.path("activeDeadlineSeconds").asText() + "s");
        }
        podTemplate(jobSpec.path("template"));
        JsonNode status = cronJob.path("status");
        Instant last = time(status.path("lastScheduleTime"));
        kv("", "Last Schedule Time", last == null ? "<unset>" : date(last));
        List<String> active = new ArrayList<>();
        status.path("active").forEach(a -> active.add(a.path("name").asText()));
        kv("", "Active Jobs", active.isEmpty() ? "<none>" : String.join(", ", active));
        events(events);
        return w.flush();
    }

    String pod(JsonNode pod, List<JsonNode> events) {
        JsonNode meta = pod.path("metadata");
        JsonNode spec = pod.path("spec");
        JsonNode status = pod.path("status");
        kv("", "Name", meta.path("name").asText());
        kv("", "Namespace", meta.path("namespace").asText());
        kv("", "Priority", spec.path("priority").asText("0"));
        if (!spec.path("serviceAccountName").asText("").isEmpty()) {
            kv("", "Service Account", spec.path("serviceAccountName").asText());
        }
        String node = spec.path("nodeName").asText("");
        String hostIp = status.path("hostIP").asText("");
        kv("", "Node", node.isEmpty() ? "<none>" : hostIp.isEmpty() ? node : node + "/" + hostIp);
        Instant start = time(status.path("startTime"));
        if (start != null) {
            kv("", "Start Time", date(start));
        }
        labels("", "Labels", meta.path("labels"));
        labels("", "Annotations", meta.path("annotations"));
        if (meta.has("deletionTimestamp")) {
            kv(
                    "",
                    "Status",
                    "Terminating (lasts " + HumanDuration.since(time(meta.path("deletionTimestamp")), now) + ")");
            kv(
                    "",
                    "Termination Grace Period",
                    meta.path("deletionGracePeriodSeconds").asText("30") + "s");
        } else {
            kv("", "Status", status.path("phase").asText("Pending"));
        }
        if (status.has("reason")) {
            kv("", "Reason", status.path("reason").asText());
        }
        if (status.has("message")) {
            kv("", "Message", status.path("message").asText());
        }
        kv("", "IP", status.path("podIP").asText(""));
        if (status.path("podIPs").isArray() && !status.path("podIPs").isEmpty()) {
            w.write("IPs:\n");
            status.path("podIPs").forEach(ip -> kv(L1, "IP", ip.path("ip").asText()));
        } else {
            kv("", "IPs", "<none>");
        }
        controlledBy(meta);
        if (spec.path("initContainers").isArray()
                && !spec.path("initContainers").isEmpty()) {
            containers("Init Containers", spec.path("initContainers"), status.path("initContainerStatuses"), "");
        }
        containers("Containers", spec.path("containers"), status.path("containerStatuses"), "");
        if (status.path("conditions").isArray() && !status.path("conditions").isEmpty()) {
            w.write("Conditions:\n");
            w.write(L1 + "Type\tStatus\n");
            for (JsonNode c : status.path("conditions")) {
                w.write(L1 + c.path("type").asText() + " \t" + c.path("status").asText() + " \n");
            }
        }
        kv("", "Volumes", spec.path("volumes").isEmpty() ? "<none>" : names(spec.path("volumes")));
        kv("", "QoS Class", status.path("qosClass").asText("BestEffort"));
        kv("", "Node-Selectors", spec.path("nodeSelector").isEmpty() ? "<none>" : mapLine(spec.path("nodeSelector")));
        kv("", "Tolerations", spec.path("tolerations").isEmpty() ? "<none>" : names(spec.path("tolerations")));
        events(events);
        return w.flush();
    }

    /**
     * kubectl's node description. {@code lease} is the node's Lease in kube-node-lease (null if missing),
     * {@code pods} its non-terminated pods.
     */
    String node(JsonNode node, JsonNode lease, List<JsonNode> pods, List<JsonNode> events) {
        JsonNode meta = node.path("metadata");
        JsonNode spec = node.path("spec");
        JsonNode status = node.path("status");
        kv("", "Name", meta.path("name").asText());
        List<String> roles = new ArrayList<>();
        meta.path("labels").fieldNames().forEachRemaining(l -> {
            if (l.startsWith("node-role.kubernetes.io/")) {
                roles.add(l.substring("node-role.kubernetes.io/".length()));
            }
        });
        kv("", "Roles", roles.isEmpty() ? "<none>" : String.join(",", roles));
        labels("", "Labels", meta.path("labels"));
        labels("", "Annotations", meta.path("annotations"));
        kv("", "CreationTimestamp", date(time(meta.path("creationTimestamp"))));
        kv("", "Taints", spec.path("taints").isEmpty() ? "<none>" : names(spec.path("taints")));
        kv("", "Unschedulable", Boolean.toString(spec.path("unschedulable").asBoolean(false)));
        if (lease == null) {
            kv(
                    "",
                    "Lease",
                    "Failed to get lease: leases.coordination.k8s.io \""
                            + meta.path("name").asText() + "\" not found");
        } else {
            JsonNode ls = lease.path("spec");
            w.write("Lease:\n");
            kv(L1, "HolderIdentity", ls.path("holderIdentity").asText("<unset>"));
            Instant acquired = time(ls.path("acquireTime"));
            Instant renewed = time(ls.path("renewTime"));
            kv(L1, "AcquireTime", acquired == null ? "<unset>" : date(acquired));
            kv(L1, "RenewTime", renewed == null ? "<unset>" : date(renewed));
        }
        w.write("Conditions:\n");
        w.write(L1 + "Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n");
        w.write(L1 + "----\t------\t-----------------\t------------------\t------\t-------\n");
        for (JsonNode c : status.path("conditions")) {
            w.write(L1 + c.path("type").asText() + " \t" + c.path("status").asText() + " \t"
                    + date(time(c.path("lastHeartbeatTime"))) + " \t" + date(time(c.path("lastTransitionTime"))) + " \t"
                    + c.path("reason").asText() + " \t" + c.path("message").asText() + "\n");
        }
        w.write("Addresses:\n");
        for (JsonNode a : status.path("addresses")) {
            kv(L1, a.path("type").asText(), a.path("address").asText());
        }
        resourceList("Capacity", status.path("capacity"));
        resourceList("Allocatable", status.path("allocatable"));
        JsonNode info = status.path("nodeInfo");
        w.write("System Info:\n");
        kv(L1, "Machine ID", info.path("machineID").asText(""));
        kv(L1, "System UUID", info.path("systemUUID").asText(""));
        kv(L1, "Boot ID", info.path("bootID").asText(""));
        kv(L1, "Kernel Version", info.path("kernelVersion").asText(""));
        kv(L1, "OS Image", info.path("osImage").asText(""));
        kv(L1, "Operating System", info.path("operatingSystem").asText(""));
        kv(L1, "Architecture", info.path("architecture").asText(""));
        kv(L1, "Container Runtime Version", info.path("containerRuntimeVersion").asText(""));
        kv(L1, "Kubelet Version", info.path("kubeletVersion").asText(""));
        kv(L1, "Kube-Proxy Version", info.path("kubeProxyVersion").asText(""));
        if (!spec.path("podCIDR").asText("").isEmpty()) {
            kv("", "PodCIDR", spec.path("podCIDR").asText());
        }
        if (spec.path("podCIDRs").isArray() && !spec.path("podCIDRs").isEmpty()) {
            List<String> cidrs = new ArrayList<>();
            spec.path("podCIDRs").forEach(c -> cidrs.add(c.asText()));
            kv("", "PodCIDRs", String.join(",", cidrs));
        }
        if (!spec.path("providerID").asText("").isEmpty()) {
            kv("", "ProviderID", spec.path("providerID").asText());
        }
        nodeResources(status.path("allocatable"), pods);
        events(events);
        return w.flush();
    }

    private void resourceList(String title, JsonNode resources) {
        if (!resources.isObject() || resources.isEmpty()) {
            return;
        }
        w.write(title + ":\n");
        List<String> names = new ArrayList<>();
        resources.fieldNames().forEachRemaining(names::add);
        names.sort(null);
        for (String name : names) {
            kv(L1, name, ResourceQuantity.parse(resources.path(name)).toString());
        }
    }

    /** The pods on the node with their requests and limits, then the totals against allocatable. */
    private void nodeResources(JsonNode allocatable, List<JsonNode> pods) {
        ResourceQuantity cpu = ResourceQuantity.parse(allocatable.path("cpu"));
        ResourceQuantity memory = ResourceQuantity.parse(allocatable.path("memory"));
        ResourceQuantity storage = ResourceQuantity.parse(allocatable.path("ephemeral-storage"));
        w.write("Non-terminated Pods:\t(" + pods.size() + " in total)\n");
        w.write(L1 + "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n");
        w.write(L1 + "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n");
        Map<String, ResourceQuantity> totalRequests = new java.util.HashMap<>();
        Map<String, ResourceQuantity> totalLimits = new java.util.HashMap<>();
        for (JsonNode pod : pods) {
            Map<String, ResourceQuantity> req = podResources(pod, "requests");
            Map<String, ResourceQuantity> lim = podResources(pod, "limits");
            req.forEach((k, v) -> totalRequests.merge(k, v, ResourceQuantity::plus));
            lim.forEach((k, v) -> totalLimits.merge(k, v, ResourceQuantity::plus));
            w.write(L1 + pod.path("metadata").path("namespace").asText() + "\t"
                    + pod.path("metadata").path("name").asText()
                    + "\t\t" + share(req.get("cpu"), cpu) + "\t" + share(lim.get("cpu"), cpu)
                    + "\t" + share(req.get("memory"), memory) + "\t" + share(lim.get("memory"), memory)
                    + "\t" + HumanDuration.since(time(pod.path("metadata").path("creationTimestamp")), now) + "\n");
        }
        w.write("Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n");
        w.write(L1 + "Resource\tRequests\tLimits\n");
        w.write(L1 + "--------\t--------\t------\n");
        w.write(L1 + "cpu\t" + share(totalRequests.get("cpu"), cpu) + "\t" + share(totalLimits.get("cpu"), cpu) + "\n");
        w.write(L1 + "memory\t" + share(totalRequests.get("memory"), memory) + "\t"
                + share(totalLimits.get("memory"), memory) + "\n");
        w.write(L1 + "ephemeral-storage\t" + share(totalRequests.get("ephemeral-storage"), storage) + "\t"
                + share(totalLimits.get("ephemeral-storage"), storage) + "\n");
    }

    private static String share(ResourceQuantity q, ResourceQuantity of) {
        ResourceQuantity v = q == null ? ResourceQuantity.ZERO : q;
        return v + " (" + v.percentOf(of) + "%)";
    }

    /** A pod's requests or limits: the sum over containers, at least each init container's (as Kubernetes). */
    private static Map<String, ResourceQuantity> podResources(JsonNode pod, String kind) {
        Map<String, ResourceQuantity> sum = new java.util.HashMap<>();
        for (JsonNode c : pod.path("spec").path("containers")) {
            c.path("resources")
                    .path(kind)
                    .fields()
                    .forEachRemaining(
                            e -> sum.merge(e.getKey(), ResourceQuantity.parse(e.getValue()), ResourceQuantity::plus));
        }
        for (JsonNode c : pod.path("spec").path("initContainers")) {
            c.path("resources")
                    .path(kind)
                    .fields()
                    .forEachRemaining(
                            e -> sum.merge(e.getKey(), ResourceQuantity.parse(e.getValue()), ResourceQuantity::max));
        }
        return sum;
    }

    private void podTemplate(JsonNode template) {
        w.write("Pod Template:\n");
        labels(L1, "Labels", template.path("metadata").path("labels"));
        if (template.path("metadata").has("annotations")) {
            labels(L1, "Annotations", template.path("metadata").path("annotations"));
        }
        JsonNode spec = template.path("spec");
        if (spec.path("initContainers").isArray()
                && !spec.path("initContainers").isEmpty()) {
            containers(L1 + "Init Containers", spec.path("initContainers"), null, " ");
        }
        containers(L1 + "Containers", spec.path("containers"), null, " ");
        kv(L1, "Volumes", spec.path("volumes").isEmpty() ? "<none>" : names(spec.path("volumes")));
        kv(L1, "Node-Selectors", spec.path("nodeSelector").isEmpty() ? "<none>" : mapLine(spec.path("nodeSelector")));
        kv(L1, "Tolerations", spec.path("tolerations").isEmpty() ? "<none>" : names(spec.path("tolerations")));
    }

    /** The Containers section; {@code statuses} is null inside a pod template. */
    private void containers(String title, JsonNode containers, JsonNode statuses, String space) {
        w.write(title + ":\n");
        // as kubectl: names one level in (plus one space inside a pod template), fields two levels in
        String level2 = L2;
        for (JsonNode c : containers) {
            String name = c.path("name").asText();
            w.write(L1 + space + name + ":\n");
            JsonNode st = findByName(statuses, name);
            if (st != null) {
                kv(level2, "Container ID", st.path("containerID").asText(""));
            }
            kv(level2, "Image", c.path("image").asText());
            if (st != null) {
                kv(level2, "Image ID", st.path("imageID").asText(""));
            }
            List<String> ports = new ArrayList<>();
            c.path("ports")
                    .forEach(p -> ports.add(p.path("containerPort").asText() + "/"
                            + p.path("protocol").asText("TCP")));
            kv(level2, "Port", ports.isEmpty() ? "<none>" : String.join(", ", ports));
            kv(level2, "Host Port", "<none>");
            list(level2, "Command", c.path("command"));
            list(level2, "Args", c.path("args"));
            if (st != null) {
                state(level2, "State", st.path("state"));
                if (st.path("lastState").isObject() && !st.path("lastState").isEmpty()) {
                    state(level2, "Last State", st.path("lastState"));
                }
                kv(level2, "Ready", st.path("ready").asBoolean(false) ? "True" : "False");
                kv(level2, "Restart Count", st.path("restartCount").asText("0"));
            }
            if (c.path("env").isArray() && !c.path("env").isEmpty()) {
                w.write(level2 + "Environment:\n");
                for (JsonNode e : c.path("env")) {
                    String value = e.has("value")
                            ? e.path("value").asText()
                            : e.has("valueFrom")
                                    ? "(" + e.path("valueFrom").fieldNames().next() + ")"
                                    : "";
                    w.write(level2 + L1 + e.path("name").asText() + ":\t" + value + "\n");
                }
            } else {
                kv(level2, "Environment", "<none>");
            }
            kv(
                    level2,
                    "Mounts",
                    c.path("volumeMounts").isEmpty() ? "<none>" : joinField(c.path("volumeMounts"), "mountPath"));
        }
    }

    private void state(String indent, String title, JsonNode state) {
        if (state.has("running")) {
            kv(indent, title, "Running");
            kv(indent + L1, "Started", date(time(state.path("running").path("startedAt"))));
        } else if (state.has("terminated")) {
            JsonNode t = state.path("terminated");
            kv(indent, title, "Terminated");
            if (t.has("reason")) {
                kv(indent + L1, "Reason", t.path("reason").asText());
            }
            if (t.has("message")) {
                kv(indent + L1, "Message", t.path("message").asText());
            }
            kv(indent + L1, "Exit Code", t.path("exitCode").asText("0"));
            if (t.has("signal")) {
                kv(indent + L1, "Signal", t.path("signal").asText());
            }
            kv(indent + L1, "Started", date(time(t.path("startedAt"))));
            kv(indent + L1, "Finished", date(time(t.path("finishedAt"))));
        } else if (state.has("waiting")) {
            kv(indent, title, "Waiting");
            if (state.path("waiting").has("reason")) {
                kv(indent + L1, "Reason", state.path("waiting").path("reason").asText());
            }
        } else {
            kv(indent, title, "Waiting");
        }
    }

    void events(List<JsonNode> events) {
        if (events == null) {
            return;
        }
        if (events.isEmpty()) {
            w.write("Events:\t<none>\n");
            return;
        }
        List<JsonNode> sorted = new ArrayList<>(events);
        sorted.sort((a, b) -> {
            Instant ta = lastSeen(a);
            Instant tb = lastSeen(b);
            return ta == null || tb == null ? 0 : ta.compareTo(tb);
        });
        w.write("Events:\n");
        w.write(L1 + "Type\tReason\tAge\tFrom\tMessage\n");
        w.write(L1 + "----\t------\t----\t----\t-------\n");
        for (JsonNode e : sorted) {
            long count = e.path("count").asLong(1);
            Instant first = time(e.path("firstTimestamp"));
            if (first == null) {
                first = time(e.path("eventTime"));
            }
            String age = HumanDuration.since(lastSeen(e), now);
            if (count > 1) {
                age = age + " (x" + count + " over " + HumanDuration.since(first, now) + ")";
            }
            String from = e.path("source")
                    .path("component")
                    .asText(e.path("reportingComponent").asText(""));
            w.write(L1 + e.path("type").asText() + "\t" + e.path("reason").asText() + "\t" + age + "\t" + from + "\t"
                    + e.path("message").asText().strip() + "\n");
        }
    }

    private static Instant lastSeen(JsonNode e) {
        Instant t = time(e.path("lastTimestamp"));
        if (t == null) {
            t = time(e.path("firstTimestamp"));
        }
        return t == null ? time(e.path("eventTime")) : t;
    }

    private void controlledBy(JsonNode meta) {
        for (JsonNode ref : meta.path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                kv(
                        "",
                        "Controlled By",
                        ref.path("kind").asText() + "/" + ref.path("name").asText());
            }
        }
    }

    void kv(String indent, String key, String value) {
        w.write(indent + key + ":\t" + value + "\n");
    }

    private void list(String indent, String title, JsonNode values) {
        if (!values.isArray() || values.isEmpty()) {
            return;
        }
        w.write(indent + title + ":\n");
        for (JsonNode v : values) {
            for (String line : v.asText().split("\n")) {
                w.write(indent + L1 + line + "\n");
            }
        }
    }

    /** kubectl's printLabelsMultiline: sorted {@code k=v}, one per line, aligned under the first. */
    void labels(String indent, String title, JsonNode map) {
        List<String> entries = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = map.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            entries.add(e.getKey() + "=" + e.getValue().asText());
        }
        entries.sort(String::compareTo);
        if (title.equals("Annotations")) {
            entries.removeIf(e -> e.startsWith("kubectl.kubernetes.io/last-applied-configuration="));
            List<String> annotations = new ArrayList<>();
            for (String e : entries) {
                int eq = e.indexOf('=');
                annotations.add(e.substring(0, eq) + ": " + e.substring(eq + 1));
            }
            entries = annotations;
        }
        if (entries.isEmpty()) {
            kv(indent, title, "<none>");
            return;
        }
        kv(indent, title, entries.get(0));
        for (String e : entries.subList(1, entries.size())) {
            w.write(indent + "\t" + e + "\n");
        }
    }

    private static String selector(JsonNode selector) {
        List<String> parts = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = selector.path("matchLabels").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            parts.add(e.getKey() + "=" + e.getValue().asText());
        }
        for (JsonNode expr : selector.path("matchExpressions")) {
            List<String> values = new ArrayList<>();
            expr.path("values").forEach(v -> values.add(v.asText()));
            parts.add(expr.path("key").asText() + " "
                    + expr.path("operator").asText().toLowerCase(Locale.ROOT) + " (" + String.join(",", values) + ")");
        }
        parts.sort(String::compareTo);
        return parts.isEmpty() ? "<none>" : String.join(",", parts);
    }

    private static String mapLine(JsonNode map) {
        List<String> parts = new ArrayList<>();
        map.fields()
                .forEachRemaining(e -> parts.add(e.getKey() + "=" + e.getValue().asText()));
        return String.join(",", parts);
    }

    private static String names(JsonNode list) {
        List<String> parts = new ArrayList<>();
        list.forEach(e -> parts.add(e.path("name").asText(e.path("key").asText(e.toString()))));
        return String.join(", ", parts);
    }

    private static String joinField(JsonNode list, String field) {
        List<String> parts = new ArrayList<>();
        list.forEach(e -> parts.add(e.path(field).asText()));
        return String.join(", ", parts);
    }

    private static JsonNode findByName(JsonNode statuses, String name) {
        if (statuses == null || !statuses.isArray()) {
            return null;
        }
        for (JsonNode s : statuses) {
            if (name.equals(s.path("name").asText())) {
                return s;
            }
        }
        return null;
    }

    /** Raw text into the tab-aligned output (for the describers of other kinds). */
    void write(String text) {
        w.write(text);
    }

    String flush() {
        return w.flush();
    }

    String dateOf(Instant t) {
        return date(t);
    }

    static Instant time(JsonNode n) {
        return n == null || !n.isTextual() ? null : Timestamps.parseOrNull(n.asText());
    }

    private String date(Instant t) {
        return t == null ? "<unset>" : RFC1123Z.format(t.atZone(zone));
    }
}
