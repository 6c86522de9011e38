package io.kplane.apiserver.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrintersTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    private static JsonNode json(String s) {
        try {
            return Json.mapper().readTree(s.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static List<Object> cells(String kind, String object) {
        return Printers.forKind(kind).cells(json(object), NOW);
    }

    @Test
    void completedJob() {
        List<Object> row = cells(
                "Job",
                "{'metadata':{'name':'pi','creationTimestamp':'2026-01-01T11:59:32Z'},"
                        + "'spec':{'completions':1,'parallelism':1,'selector':{'matchLabels':{'batch.kubernetes.io/controller-uid':'u1'}},"
                        + "'template':{'spec':{'containers':[{'name':'pi','image':'perl'},{'name':'side','image':'busybox'}]}}},"
                        + "'status':{'succeeded':1,'startTime':'2026-01-01T11:59:33Z','completionTime':'2026-01-01T11:59:35Z',"
                        + "'conditions':[{'type':'SuccessCriteriaMet','status':'True'},{'type':'Complete','status':'True'}]}}");
        assertThat(row)
                .containsExactly(
                        "pi",
                        "Complete",
                        "1/1",
                        "2s",
                        "28s",
                        "pi,side",
                        "perl,busybox",
                        "batch.kubernetes.io/controller-uid=u1");
    }

    @Test
    void workQueueJobAndRunningDuration() {
        List<Object> row = cells(
                "Job",
                "{'metadata':{'name':'wq','creationTimestamp':'2026-01-01T11:00:00Z'},"
                        + "'spec':{'parallelism':4,'suspend':false},'status':{'succeeded':3,'startTime':'2026-01-01T11:57:30Z'}}");
        assertThat(row.subList(0, 5)).containsExactly("wq", "Running", "3/1 of 4", "2m30s", "60m");
        assertThat(cells(
                                "Job",
                                "{'metadata':{'name':'s'},'spec':{'completions':2},"
                                        + "'status':{'conditions':[{'type':'Suspended','status':'True'}]}}")
                        .subList(0, 4))
                .containsExactly("s", "Suspended", "0/2", "");
        assertThat(cells("Job", "{'metadata':{'name':'f'},'status':{'conditions':[{'type':'Failed','status':'True'}]}}")
                        .get(1))
                .isEqualTo("Failed");
    }

    @Test
    void podStatuses() {
        String base = "{'metadata':{'name':'p','creationTimestamp':'2026-01-01T11:59:00Z'},"
                + "'spec':{'nodeName':'node-1','containers':[{'name':'c'}]},";
        assertThat(cells(
                        "Pod",
                        base + "'status':{'phase':'Pending','containerStatuses':[{'name':'c','ready':false,"
                                + "'restartCount':0,'state':{'waiting':{'reason':'ContainerCreating'}}}]}}"))
                .containsExactly("p", "0/1", "ContainerCreating", "0", "60s", "<none>", "node-1", "<none>", "<none>");
        assertThat(
                        cells(
                                "Pod",
                                base
                                        + "'status':{'phase':'Running','podIP':'10.0.0.5','containerStatuses':[{'name':'c',"
                                        + "'ready':false,'restartCount':3,'state':{'waiting':{'reason':'CrashLoopBackOff'}},"
                                        + "'lastState':{'terminated':{'exitCode':1,'reason':'Error','finishedAt':'2026-01-01T11:59:50Z'}}}]}}"))
                .containsExactly(
                        "p", "0/1", "CrashLoopBackOff", "3 (10s ago)", "60s", "10.0.0.5", "node-1", "<none>", "<none>");
        assertThat(cells(
                                "Pod",
                                base + "'status':{'phase':'Succeeded','containerStatuses':[{'name':'c','ready':false,"
                                        + "'state':{'terminated':{'exitCode':0,'reason':'Completed'}}}]}}")
                        .get(2))
                .isEqualTo("Completed");
        assertThat(cells(
                                "Pod",
                                base + "'status':{'phase':'Failed','containerStatuses':[{'name':'c','ready':false,"
                                        + "'state':{'terminated':{'exitCode':2}}}]}}")
                        .get(2))
                .isEqualTo("ExitCode:2");
        assertThat(cells(
                                "Pod",
                                base + "'status':{'phase':'Running','containerStatuses':[{'name':'c','ready':true,"
                                        + "'state':{'running':{'startedAt':'2026-01-01T11:59:10Z'}}}]}}")
                        .subList(1, 3))
                .containsExactly("1/1", "Running");
        assertThat(cells(
                                "Pod",
                                "{'metadata':{'name':'p','deletionTimestamp':'2026-01-01T12:00:00Z'},"
                                        + "'spec':{'containers':[{'name':'c'}]},'status':{'phase':'Running'}}")
                        .get(2))
                .isEqualTo("Terminating");
        assertThat(cells(
                                "Pod",
                                "{'metadata':{'name':'p'},'spec':{'initContainers':[{'name':'i'}],'containers':[{'name':'c'}]},"
                                        + "'status':{'phase':'Pending','initContainerStatuses':[{'name':'i','state':{'running':{}}}]}}")
                        .get(2))
                .isEqualTo("Init:0/1");
        assertThat(cells(
                                "Pod",
                                "{'metadata':{'name':'p'},'spec':{'initContainers':[{'name':'i'}],'containers':[{'name':'c'}]},"
                                        + "'status':{'phase':'Failed','initContainerStatuses':[{'name':'i','state':{'terminated':{'exitCode':1,'reason':'Error'}}}]}}")
                        .get(2))
                .isEqualTo("Init:Error");
    }

    @Test
    void cronJobNodeEventNamespaceLease() {
        assertThat(
                        cells(
                                "CronJob",
                                "{'metadata':{'name':'hello','creationTimestamp':'2026-01-01T11:00:00Z'},"
                                        + "'spec':{'schedule':'*/1 * * * *','suspend':false,'jobTemplate':{'spec':{'template':{'spec':{'containers':[{'name':'h','image':'busybox'}]}}}}},"
                                        + "'status':{'active':[{'name':'hello-1'}],'lastScheduleTime':'2026-01-01T11:59:00Z'}}"))
                .containsExactly("hello", "*/1 * * * *", "<none>", "False", 1L, "60s", "60m", "h", "busybox", "<none>");
        assertThat(cells(
                        "Node",
                        "{'metadata':{'name':'n1','creationTimestamp':'2026-01-01T11:00:00Z','labels':{'node-role.kubernetes.io/worker':''}},"
                                + "'status':{'conditions':[{'type':'Ready','status':'False'}],'nodeInfo':{'kubeletVersion':'v1.32.0-kplane'},"
                                + "'addresses':[{'type':'InternalIP','address':'127.0.0.1'}]}}"))
                .containsExactly(
                        "n1",
                        "NotReady",
                        "worker",
                        "60m",
                        "v1.32.0-kplane",
                        "127.0.0.1",
                        "<none>",
                        "<unknown>",
                        "<unknown>",
                        "<unknown>");
        assertThat(cells(
                        "Event",
                        "{'metadata':{'name':'pi.1'},'involvedObject':{'kind':'Job','name':'pi'},'reason':'SuccessfulCreate',"
                                + "'message':'Created pod: pi-abcde ','type':'Normal','firstTimestamp':'2026-01-01T11:59:00Z','lastTimestamp':'2026-01-01T11:59:30Z',"
                                + "'count':2,'source':{'component':'job-controller'}}"))
                .containsExactly(
                        "30s",
                        "Normal",
                        "SuccessfulCreate",
                        "job/pi",
                        "",
                        "job-controller",
                        "Created pod: pi-abcde",
                        "60s",
                        2L,
                        "pi.1");
        assertThat(
                        cells(
                                "Namespace",
                                "{'metadata':{'name':'default','creationTimestamp':'2026-01-01T11:00:00Z'},'status':{'phase':'Active'}}"))
                .containsExactly("default", "Active", "60m");
        assertThat(
                        cells(
                                "Lease",
                                "{'metadata':{'name':'n1','creationTimestamp':'2026-01-01T11:00:00Z'},'spec':{'holderIdentity':'n1'}}"))
                .containsExactly("n1", "n1", "60m");
    }

    @Test
    void tableShapes() {
        TableRenderer renderer = new TableRenderer(Clock.fixed(NOW, ZoneOffset.UTC));
        JsonNode job = json(
                "{'apiVersion':'batch/v1','kind':'Job','metadata':{'name':'pi','namespace':'default','resourceVersion':'7',"
                        + "'labels':{'a':'b'}},'spec':{'completions':1}}");
        ObjectNode list = renderer.list("Job", List.of(job), "9", null, TableRenderer.IncludeObject.METADATA);
        assertThat(list.path("kind").asText()).isEqualTo("Table");
        assertThat(list.path("metadata").path("resourceVersion").asText()).isEqualTo("9");
        assertThat(list.path("columnDefinitions").get(0).path("format").asText())
                .isEqualTo("name");
        assertThat(list.path("columnDefinitions").get(5).path("priority").asInt())
                .isEqualTo(1);
        JsonNode row = list.path("rows").get(0);
        assertThat(row.path("object").path("kind").asText()).isEqualTo("PartialObjectMetadata");
        assertThat(row.path("object").path("metadata").path("labels").path("a").asText())
                .isEqualTo("b");
        assertThat(row.path("object").has("spec")).isFalse();

        ObjectNode full = renderer.single("Job", job, TableRenderer.IncludeObject.OBJECT);
        assertThat(full.path("metadata").path("resourceVersion").asText()).isEqualTo("7");
        assertThat(full.path("rows")
                        .get(0)
                        .path("object")
                        .path("spec")
                        .path("completions")
                        .asInt())
                .isEqualTo(1);

        ObjectNode later = renderer.watchEvent("Job", job, TableRenderer.IncludeObject.METADATA, false);
        assertThat(later.get("columnDefinitions").isNull()).isTrue();
        assertThat(later.path("rows")).hasSize(1);
    }

    @Test
    void tableIsChosenOnlyWhenPreferred() {
        assertThat(TableRenderer.wantsTable("application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;"
                        + "v=v1beta1;g=meta.k8s.io,application/json"))
                .isTrue();
        assertThat(TableRenderer.wantsTable("application/json")).isFalse();
        assertThat(TableRenderer.wantsTable("application/json;as=Foo;v=v1;g=x,application/json"))
                .isFalse();
        assertThat(TableRenderer.wantsTable(null)).isFalse();
    }
}
