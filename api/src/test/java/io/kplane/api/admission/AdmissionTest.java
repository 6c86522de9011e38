package io.kplane.api.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.api.core.Pod;
import io.kplane.api.json.Json;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.Status;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Table-driven admission checks: each case is a manifest edit and the exact causes Kubernetes reports. */
class AdmissionTest {
    static final String UID = "0b1f3a52-5d5e-4e0e-9a46-0f1b2c3d4e5f";

    static final String JOB =
            """
            {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi","namespace":"default","uid":"%s"},
             "spec":{"template":{"spec":{"restartPolicy":"Never",
               "containers":[{"name":"pi","image":"perl:5.34.0","command":["perl"]}]}}}}"""
                    .formatted(UID);
    static final String POD =
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default","uid":"u"},
             "spec":{"containers":[{"name":"main","image":"busybox"}]}}""";
    static final String CRONJOB =
            """
            {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"hello","namespace":"default","uid":"u"},
             "spec":{"schedule":"*/5 * * * *","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure",
               "containers":[{"name":"hello","image":"busybox:1.28"}]}}}}}}""";

    record Case(String name, ResourceType type, String manifest, String patch, List<String> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case c(String name, ResourceType type, String base, String patch, String... expected) {
        return new Case(name, type, base, patch, List.of(expected));
    }

    static Stream<Case> createCases() {
        return Stream.of(
                c("valid job", ResourceTypes.JOBS, JOB, "{}"),
                c(
                        "job restartPolicy Always",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"Always\"}}}}",
                        "FieldValueRequired spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""),
                c(
                        "job restartPolicy unset defaults to Always",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":null}}}}",
                        "FieldValueRequired spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""),
                c(
                        "job restartPolicy unknown",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"Sometimes\"}}}}",
                        "FieldValueNotSupported spec.template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"",
                        "FieldValueNotSupported spec.template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"OnFailure\", \"Never\""),
                c(
                        "negative counts",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"parallelism\":-1,\"completions\":-2,\"backoffLimit\":-1,\"ttlSecondsAfterFinished\":-5,\"activeDeadlineSeconds\":-1}}",
                        "FieldValueInvalid spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
                        "FieldValueInvalid spec.completions: Invalid value: -2: must be greater than or equal to 0",
                        "FieldValueInvalid spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
                        "FieldValueInvalid spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0",
                        "FieldValueInvalid spec.ttlSecondsAfterFinished: Invalid value: -5: must be greater than or equal to 0"),
                c(
                        "indexed without completions",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"completionMode\":\"Indexed\",\"parallelism\":2}}",
                        "FieldValueRequired spec.completions: Required value: when completion mode is Indexed"),
                c(
                        "unknown completion mode",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"completionMode\":\"Sometimes\"}}",
                        "FieldValueNotSupported spec.completionMode: Unsupported value: \"Sometimes\": supported values: \"NonIndexed\", \"Indexed\""),
                c(
                        "backoffLimitPerIndex needs Indexed",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"backoffLimitPerIndex\":1}}",
                        "FieldValueInvalid spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode"),
                c(
                        "pod failure policy with OnFailure",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"OnFailure\"}},\"podFailurePolicy\":{\"rules\":[{\"action\":\"FailJob\",\"onExitCodes\":{\"operator\":\"In\",\"values\":[1]}}]}}}",
                        "FieldValueInvalid spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified"),
                c(
                        "pod failure policy rule shapes",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"podFailurePolicy\":{\"rules\":[{\"action\":\"Explode\",\"onExitCodes\":{\"containerName\":\"nope\",\"operator\":\"In\",\"values\":[3,0,3]}},{\"action\":\"Ignore\"}]}}}",
                        "FieldValueNotSupported spec.podFailurePolicy.rules[0].action: Unsupported value: \"Explode\": supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\"",
                        "FieldValueInvalid spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: \"nope\": must be one of the container or initContainer names in the pod template",
                        "FieldValueInvalid spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator",
                        "FieldValueDuplicate spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3",
                        "FieldValueInvalid spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{3, 0, 3}: must be ordered",
                        "FieldValueInvalid spec.podFailurePolicy.rules[1]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required"),
                c(
                        "manual selector that does not match",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"manualSelector\":true,\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"y\"}}}}}",
                        "FieldValueInvalid spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"y\"}: `selector` does not match template `labels`"),
                c(
                        "user selector without manualSelector",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"x\"}}}}}",
                        "FieldValueInvalid spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"x\",\"batch.kubernetes.io/controller-uid\":\""
                                + UID + "\"}}: `selector` not auto-generated"),
                c(
                        "bad names and labels",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"metadata\":{\"name\":\"Pi_1\",\"labels\":{\"a b\":\"ok\"}}}",
                        "FieldValueInvalid metadata.name: Invalid value: \"Pi_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                        "FieldValueInvalid metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
                c("valid pod", ResourceTypes.PODS, POD, "{}"),
                c(
                        "pod without containers",
                        ResourceTypes.PODS,
                        POD,
                        "{\"spec\":{\"containers\":[]}}",
                        "FieldValueRequired spec.containers: Required value"),
                c(
                        "pod container problems",
                        ResourceTypes.PODS,
                        POD,
                        "{\"spec\":{\"restartPolicy\":\"Sometimes\",\"containers\":[{\"name\":\"main\",\"image\":\"a\"},{\"name\":\"main\",\"image\":\"\"},{\"name\":\"Bad_Name\",\"image\":\"b\",\"env\":[{\"name\":\"1x=\"},{\"name\":\"N\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"spec.bogus\"}}}]}]}}",
                        "FieldValueDuplicate spec.containers[1].name: Duplicate value: \"main\"",
                        "FieldValueRequired spec.containers[1].image: Required value",
                        "FieldValueInvalid spec.containers[2].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                        "FieldValueInvalid spec.containers[2].env[0].name: Invalid value: \"1x=\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
                        "FieldValueNotSupported spec.containers[2].env[1].valueFrom.fieldRef.fieldPath: Unsupported value: \"spec.bogus\": supported values: \"metadata.name\", \"metadata.namespace\", \"metadata.uid\", \"spec.nodeName\", \"spec.serviceAccountName\", \"status.hostIP\", \"status.hostIPs\", \"status.podIP\", \"status.podIPs\"",
                        "FieldValueNotSupported spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\""),
                c(
                        "pod missing namespace and name",
                        ResourceTypes.PODS,
                        POD,
                        "{\"metadata\":{\"name\":null,\"namespace\":null}}",
                        "FieldValueRequired metadata.name: Required value: name or generateName is required",
                        "FieldValueRequired metadata.namespace: Required value"),
                c("valid cronjob", ResourceTypes.CRONJOBS, CRONJOB, "{}"),
                c(
                        "cronjob macro schedule",
                        ResourceTypes.CRONJOBS,
                        CRONJOB,
                        "{\"spec\":{\"schedule\":\"@hourly\",\"timeZone\":\"Asia/Tokyo\"}}"),
                c(
                        "cronjob bad schedule",
                        ResourceTypes.CRONJOBS,
                        CRONJOB,
                        "{\"spec\":{\"schedule\":\"* * *\"}}",
                        "FieldValueInvalid spec.schedule: Invalid value: \"* * *\": expected exactly 5 fields, found 3: [* * *]"),
                c(
                        "cronjob TZ in schedule",
                        ResourceTypes.CRONJOBS,
                        CRONJOB,
                        "{\"spec\":{\"schedule\":\"TZ=UTC 0 * * * *\"}}",
                        "FieldValueInvalid spec.schedule: Invalid value: \"TZ=UTC 0 * * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"),
                c(
                        "cronjob bad time zone",
                        ResourceTypes.CRONJOBS,
                        CRONJOB,
                        "{\"spec\":{\"timeZone\":\"Mars/Olympus\"}}",
                        "FieldValueInvalid spec.timeZone: Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus"),
                c(
                        "cronjob Local time zone",
                        ResourceTypes.CRONJOBS,
                        CRONJOB,
                        "{\"spec\":{\"timeZone\":\"Local\"}}",
                        "FieldValueInvalid spec.timeZone: Invalid value: \"Local\": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"),
                c(
                        "cronjob long name and enums",
                        ResourceTypes.CRONJOBS,
                        CRONJOB,
                        "{\"metadata\":{\"name\":\"a123456789a123456789a123456789a123456789a123456789abc\"},\"spec\":{\"concurrencyPolicy\":\"Sometimes\",\"successfulJobsHistoryLimit\":-1}}",
                        "FieldValueInvalid metadata.name: Invalid value: \"a123456789a123456789a123456789a123456789a123456789abc\": must be no more than 52 characters",
                        "FieldValueNotSupported spec.concurrencyPolicy: Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\", \"Replace\"",
                        "FieldValueInvalid spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0"),
                c(
                        "cronjob template restartPolicy Always",
                        ResourceTypes.CRONJOBS,
                        CRONJOB,
                        "{\"spec\":{\"jobTemplate\":{\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"Always\"}}}}}}",
                        "FieldValueRequired spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""),
                c(
                        "namespace must be a DNS label",
                        ResourceTypes.NAMESPACES,
                        "{\"metadata\":{\"name\":\"a.b\"}}",
                        "{}",
                        "FieldValueInvalid metadata.name: Invalid value: \"a.b\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
                c(
                        "node with namespace",
                        ResourceTypes.NODES,
                        "{\"metadata\":{\"name\":\"n1\",\"namespace\":\"x\"}}",
                        "{}",
                        "FieldValueForbidden metadata.namespace: Forbidden: not allowed on this type"),
                c(
                        "lease durations",
                        ResourceTypes.LEASES,
                        "{\"metadata\":{\"name\":\"n1\",\"namespace\":\"kube-node-lease\"},\"spec\":{\"leaseDurationSeconds\":0,\"leaseTransitions\":-1}}",
                        "{}",
                        "FieldValueInvalid spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
                        "FieldValueInvalid spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0"),
                c(
                        "event namespace mismatch",
                        ResourceTypes.EVENTS,
                        "{\"metadata\":{\"name\":\"e.1\",\"namespace\":\"prod\"},\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"dev\"}}",
                        "{}",
                        "FieldValueInvalid involvedObject.namespace: Invalid value: \"dev\": does not match event.namespace"),
                c(
                        "new-style event requires reporting fields",
                        ResourceTypes.EVENTS,
                        "{\"metadata\":{\"name\":\"e.1\",\"namespace\":\"prod\"},\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"prod\"},\"eventTime\":\"2024-03-01T10:00:00.000000Z\"}",
                        "{}",
                        "FieldValueRequired reportingComponent: Required value",
                        "FieldValueInvalid reportingComponent: Invalid value: \"\": name part must be non-empty",
                        "FieldValueInvalid reportingComponent: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                        "FieldValueRequired reportingInstance: Required value",
                        "FieldValueRequired action: Required value",
                        "FieldValueRequired reason: Required value"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("createCases")
    void validateCreate(Case tc) {
        Admission admission = admissionFor(tc.type());
        KubeObject obj = admission.defaultOnCreate(parse(tc.type(), mergePatch(tc.manifest(), tc.patch())));
        assertThat(render(admission.validateCreate(obj))).containsExactlyElementsOf(tc.expected());
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> updateCases() {
        String started = "{\"status\":{\"startTime\":\"2024-01-01T00:00:00Z\"}}";
        return Stream.of(
                arguments(
                        "job parallelism may change",
                        ResourceTypes.JOBS,
                        JOB,
                        "{}",
                        "{\"spec\":{\"parallelism\":3}}",
                        List.of()),
                arguments(
                        "job completions immutable",
                        ResourceTypes.JOBS,
                        JOB,
                        "{}",
                        "{\"spec\":{\"completions\":3}}",
                        List.of("FieldValueInvalid spec.completions: Invalid value: 3: field is immutable")),
                arguments(
                        "job template immutable",
                        ResourceTypes.JOBS,
                        JOB,
                        started,
                        "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"pi\",\"image\":\"perl:6\",\"command\":[\"perl\"]}]}}}}",
                        List.of("spec.template FieldValueInvalid field is immutable")),
                arguments(
                        "suspended job may change node selector",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"suspend\":true}}",
                        "{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":{\"disk\":\"ssd\"}}}}}",
                        List.of()),
                arguments(
                        "completionMode immutable",
                        ResourceTypes.JOBS,
                        JOB,
                        "{}",
                        "{\"spec\":{\"completionMode\":\"Indexed\"}}",
                        List.of(
                                "FieldValueInvalid spec.completionMode: Invalid value: \"Indexed\": field is immutable")),
                arguments(
                        "indexed completions scale with parallelism only",
                        ResourceTypes.JOBS,
                        JOB,
                        "{\"spec\":{\"completionMode\":\"Indexed\",\"completions\":2,\"parallelism\":2}}",
                        "{\"spec\":{\"completions\":4}}",
                        List.of(
                                "FieldValueInvalid spec.completions: Invalid value: 4: can only be modified in tandem with spec.parallelism")),
                arguments(
                        "pod image may change",
                        ResourceTypes.PODS,
                        POD,
                        "{}",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"busybox:2\",\"imagePullPolicy\":\"Always\"}]}}",
                        List.of()),
                arguments(
                        "pod restartPolicy immutable",
                        ResourceTypes.PODS,
                        POD,
                        "{}",
                        "{\"spec\":{\"restartPolicy\":\"Never\"}}",
                        List.of(
                                "spec FieldValueForbidden pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)")),
                arguments(
                        "name immutable",
                        ResourceTypes.PODS,
                        POD,
                        "{}",
                        "{\"metadata\":{\"name\":\"q\"}}",
                        List.of("FieldValueInvalid metadata.name: Invalid value: \"q\": field is immutable")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("updateCases")
    void validateUpdate(
            String name, ResourceType type, String base, String oldPatch, String newPatch, List<String> expected) {
        Admission admission = admissionFor(type);
        KubeObject old = admission.defaultOnCreate(parse(type, mergePatch(base, oldPatch)));
        ObjectNode changed = (ObjectNode) mergePatch(Json.write(old), newPatch);
        KubeObject updated = admission.defaultOnUpdate(parse(type, changed), old);
        List<io.kplane.api.admission.FieldError> errors = admission.validateUpdate(updated, old);
        List<String> rendered = errors.stream()
                .map(e -> e.type() == FieldError.Type.FORBIDDEN || e.field().equals("spec.template")
                        ? e.field() + " " + e.type().reason() + " " + e.detail().split("\n", -1)[0]
                        : e.type().reason() + " " + e.message())
                .toList();
        assertThat(rendered).containsExactlyElementsOf(expected);
    }

    @Test
    void jobDefaultsOnCreate() {
        Admission admission = admissionFor(ResourceTypes.JOBS);
        Job job = (Job) admission.defaultOnCreate(parse(ResourceTypes.JOBS, Json.tree(JOB)));
        assertThat(job.spec().parallelism()).isEqualTo(1);
        assertThat(job.spec().completions()).isEqualTo(1);
        assertThat(job.spec().backoffLimit()).isEqualTo(6);
        assertThat(job.spec().completionMode()).isEqualTo("NonIndexed");
        assertThat(job.spec().suspend()).isFalse();
        assertThat(job.spec().manualSelector()).isFalse();
        assertThat(job.spec().podReplacementPolicy()).isEqualTo("TerminatingOrFailed");
        assertThat(job.spec().selector().matchLabels())
                .containsExactly(org.assertj.core.api.Assertions.entry("batch.kubernetes.io/controller-uid", UID));
        assertThat(job.spec().template().metadata().labels())
                .containsOnly(
                        org.assertj.core.api.Assertions.entry("batch.kubernetes.io/controller-uid", UID),
                        org.assertj.core.api.Assertions.entry("batch.kubernetes.io/job-name", "pi"),
                        org.assertj.core.api.Assertions.entry("controller-uid", UID),
                        org.assertj.core.api.Assertions.entry("job-name", "pi"));
        var container = job.spec().template().spec().containers().get(0);
        assertThat(container.imagePullPolicy()).isEqualTo("IfNotPresent");
        assertThat(container.terminationMessagePath()).isEqualTo("/dev/termination-log");
        assertThat(container.terminationMessagePolicy()).isEqualTo("File");
        assertThat(job.spec().template().spec().dnsPolicy()).isEqualTo("ClusterFirst");
        assertThat(job.spec().template().spec().schedulerName()).isEqualTo("default-scheduler");
        assertThat(job.spec().template().spec().terminationGracePeriodSeconds()).isEqualTo(30L);
        // A Job without labels shows its template's, generated ones included, as Kubernetes returns
        // the pi Job of the Job concept page (SetDefaults_Job runs again when it is read back).
        assertThat(job.metadata().labels())
                .isEqualTo(job.spec().template().metadata().labels());
        assertThat(admission.validateCreate(job)).isEmpty();
    }

    @Test
    void jobLabelsDefaultToTemplateLabelsIncludingGeneratedOnes() {
        Admission admission = admissionFor(ResourceTypes.JOBS);
        KubeObject raw = parse(
                ResourceTypes.JOBS,
                mergePatch(JOB, "{\"spec\":{\"template\":{\"metadata\":{\"labels\":{\"app\":\"pi\"}}}}}"));
        Job job = (Job) admission.defaultOnCreate(raw);
        assertThat(job.metadata().labels())
                .containsEntry("app", "pi")
                .containsEntry("batch.kubernetes.io/job-name", "pi")
                .containsEntry("controller-uid", UID);
    }

    @Test
    void backoffLimitPerIndexAndPodFailurePolicyDefaults() {
        Admission admission = admissionFor(ResourceTypes.JOBS);
        Job job = (Job)
                admission.defaultOnCreate(
                        parse(
                                ResourceTypes.JOBS,
                                mergePatch(
                                        JOB,
                                        "{\"spec\":{\"completionMode\":\"Indexed\",\"completions\":3,\"backoffLimitPerIndex\":1,"
                                                + "\"podFailurePolicy\":{\"rules\":[{\"action\":\"Ignore\",\"onPodConditions\":[{\"type\":\"DisruptionTarget\"}]}]}}}")));
        assertThat(job.spec().backoffLimit()).isEqualTo(Integer.MAX_VALUE);
        assertThat(job.spec().podReplacementPolicy()).isEqualTo("Failed");
        assertThat(job.spec()
                        .podFailurePolicy()
                        .rules()
                        .get(0)
                        .onPodConditions()
                        .get(0)
                        .status())
                .isEqualTo("True");
        assertThat(admission.validateCreate(job)).isEmpty();
    }

    @Test
    void podDefaultsOnCreate() {
        Admission admission = admissionFor(ResourceTypes.PODS);
        Pod pod = (Pod)
                admission.defaultOnCreate(
                        parse(
                                ResourceTypes.PODS,
                                mergePatch(
                                        POD,
                                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"busybox\"},{\"name\":\"b\",\"image\":\"r.io/x:1.0@sha256:ab\"},{\"name\":\"c\",\"image\":\"localhost:5000/x\"}]}}")));
        assertThat(pod.spec().restartPolicy()).isEqualTo("Always");
        assertThat(pod.spec().enableServiceLinks()).isTrue();
        assertThat(pod.spec().containers())
                .extracting(c -> c.imagePullPolicy())
                .containsExactly("Always", "IfNotPresent", "Always");
        assertThat(pod.status().phase()).isEqualTo("Pending");
        assertThat(pod.status().qosClass()).isEqualTo("BestEffort");
    }

    @Test
    void cronJobDefaults() {
        Admission admission = admissionFor(ResourceTypes.CRONJOBS);
        CronJob cj = (CronJob) admission.defaultOnCreate(parse(ResourceTypes.CRONJOBS, Json.tree(CRONJOB)));
        assertThat(cj.spec().concurrencyPolicy()).isEqualTo("Allow");
        assertThat(cj.spec().suspend()).isFalse();
        assertThat(cj.spec().successfulJobsHistoryLimit()).isEqualTo(3);
        assertThat(cj.spec().failedJobsHistoryLimit()).isEqualTo(1);
        assertThat(cj.spec().jobTemplate().spec().backoffLimit()).isNull();
        assertThat(cj.spec().jobTemplate().spec().template().spec().dnsPolicy()).isEqualTo("ClusterFirst");
    }

    @Test
    void invalidStatusLooksLikeKubernetes() {
        List<FieldError> errors = List.of(
                FieldError.required("spec.template.spec.restartPolicy", "valid values: \"OnFailure\", \"Never\""));
        Status status = Admission.invalid(ResourceTypes.JOBS, "pi", errors);
        assertThat(status.code()).isEqualTo(422);
        assertThat(status.reason()).isEqualTo("Invalid");
        assertThat(status.message())
                .isEqualTo("Job.batch \"pi\" is invalid: spec.template.spec.restartPolicy: "
                        + "Required value: valid values: \"OnFailure\", \"Never\"");
        assertThat(status.details().causes())
                .containsExactly(new Status.StatusCause(
                        "FieldValueRequired",
                        "Required value: valid values: \"OnFailure\", \"Never\"",
                        "spec.template.spec.restartPolicy"));
        assertThat(status.details().group()).isEqualTo("batch");
        assertThat(status.details().kind()).isEqualTo("Job");
    }

    private static List<String> render(List<FieldError> errors) {
        return errors.stream().map(e -> e.type().reason() + " " + e.message()).toList();
    }

    static KubeObject parse(ResourceType type, com.fasterxml.jackson.databind.JsonNode tree) {
        return Json.fromTree(tree, type.javaType());
    }

    static com.fasterxml.jackson.databind.JsonNode mergePatch(String base, String patch) {
        return io.kplane.api.patch.JsonMergePatch.apply(Json.tree(base), Json.tree(patch));
    }

    /** The admission each resource's API-server strategy uses (the API server's registry is not on this module's path). */
    static Admission admissionFor(ResourceType type) {
        return switch (type.storageName()) {
            case "pods" -> new PodAdmission();
            case "jobs.batch" -> new JobAdmission();
            case "cronjobs.batch" -> new CronJobAdmission();
            case "namespaces" -> new NamespaceAdmission();
            case "nodes" -> new NodeAdmission();
            case "leases.coordination.k8s.io" -> new LeaseAdmission();
            case "events" -> new EventAdmission();
            case "configmaps" -> new ConfigMapAdmission();
            case "secrets" -> new SecretAdmission();
            case "persistentvolumeclaims" -> new PersistentVolumeClaimAdmission();
            case "persistentvolumes" -> new PersistentVolumeAdmission();
            case "rolebindings.rbac.authorization.k8s.io" -> new RoleBindingAdmission.Namespaced();
            default -> new MetadataOnlyAdmission(type.namespaced());
        };
    }
}
