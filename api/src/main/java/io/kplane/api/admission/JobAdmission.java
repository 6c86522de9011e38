package io.kplane.api.admission;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobSpec;
import io.kplane.api.batch.JobStatus;
import io.kplane.api.batch.PodFailurePolicy;
import io.kplane.api.batch.PodFailurePolicyRule;
import io.kplane.api.core.PodTemplateSpec;
import io.kplane.api.meta.LabelSelector;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.api.selector.LabelQuery;
import io.kplane.api.selector.SelectorException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Jobs: {@code SetDefaults_Job}, the generated selector and labels, and Job validation. */
public final class JobAdmission extends TypedAdmission<Job> {

    public JobAdmission() {
        super(Job.class, true, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    Job applyDefaults(Job job) {
        return job.withSpec(defaultSpec(job.spec()));
    }

    /** {@code SetDefaults_Job} on the spec (the labels part needs the object and is in prepareForCreate). */
    static JobSpec defaultSpec(JobSpec spec) {
        JobSpec s = spec == null ? io.kplane.api.batch.JobSpecBuilder.builder().build() : spec;
        if (s.completions() == null && s.parallelism() == null) {
            s = s.withCompletions(1).withParallelism(1);
        }
        if (s.parallelism() == null) {
            s = s.withParallelism(1);
        }
        if (s.backoffLimit() == null) {
            s = s.withBackoffLimit(s.backoffLimitPerIndex() != null ? Integer.MAX_VALUE : 6);
        }
        if (s.completionMode() == null) {
            s = s.withCompletionMode(JobSpec.NON_INDEXED);
        }
        if (s.suspend() == null) {
            s = s.withSuspend(false);
        }
        if (s.podFailurePolicy() != null) {
            s = s.withPodFailurePolicy(defaultConditionStatus(s.podFailurePolicy()));
        }
        if (s.podReplacementPolicy() == null) {
            s = s.withPodReplacementPolicy(
                    s.podFailurePolicy() != null ? JobSpec.REPLACE_FAILED : JobSpec.REPLACE_TERMINATING_OR_FAILED);
        }
        if (s.manualSelector() == null) {
            s = s.withManualSelector(false);
        }
        return s.withTemplate(PodDefaults.template(s.template()));
    }

    private static PodFailurePolicy defaultConditionStatus(PodFailurePolicy policy) {
        if (policy.rules() == null) {
            return policy;
        }
        List<PodFailurePolicyRule> rules = policy.rules().stream()
                .map(rule -> rule.onPodConditions() == null
                        ? rule
                        : rule.withOnPodConditions(rule.onPodConditions().stream()
                                .map(p -> p.status() == null || p.status().isEmpty() ? p.withStatus("True") : p)
                                .toList()))
                .toList();
        return policy.withRules(rules);
    }

    @Override
    Job prepareForCreate(Job job) {
        ObjectMeta meta = job.metadata() == null ? ObjectMetaBuilder.builder().build() : job.metadata();
        JobSpec spec = job.spec();
        PodTemplateSpec template = spec.template();
        ObjectMeta templateMeta =
                template.metadata() == null ? ObjectMetaBuilder.builder().build() : template.metadata();
        // SetDefaults_Job gives a Job without labels its template's labels. Kubernetes applies it on
        // every decode, also when the object is read back from storage after the generated labels
        // were added, so a Job without labels of its own always shows the generated ones (see the
        // pi Job in the Job concept page); we apply it once, after generating them.
        boolean jobTakesTemplateLabels = meta.labelsOrEmpty().isEmpty();

        if (!Boolean.TRUE.equals(spec.manualSelector())) {
            String uid = meta.uid() == null ? "" : meta.uid();
            String name = meta.name() == null ? "" : meta.name();
            Map<String, String> labels = new LinkedHashMap<>(templateMeta.labelsOrEmpty());
            labels.putIfAbsent(Job.LEGACY_JOB_NAME_LABEL, name);
            labels.putIfAbsent(Job.JOB_NAME_LABEL, name);
            labels.putIfAbsent(Job.LEGACY_CONTROLLER_UID_LABEL, uid);
            labels.putIfAbsent(Job.CONTROLLER_UID_LABEL, uid);
            templateMeta = templateMeta.withLabels(labels);
            LabelSelector selector = spec.selector() == null ? new LabelSelector(null, null) : spec.selector();
            Map<String, String> matchLabels =
                    new LinkedHashMap<>(selector.matchLabels() == null ? Map.of() : selector.matchLabels());
            matchLabels.putIfAbsent(Job.CONTROLLER_UID_LABEL, uid);
            spec = spec.withSelector(new LabelSelector(matchLabels, selector.matchExpressions()));
        }
        spec = spec.withTemplate(template.withMetadata(templateMeta));
        if (jobTakesTemplateLabels) {
            meta = meta.withLabels(new LinkedHashMap<>(templateMeta.labelsOrEmpty()));
        }
        // A new Job starts without status; the controller owns it.
        return job.withMetadata(meta.withGeneration(1L)).withSpec(spec).withStatus((JobStatus) null);
    }

    @Override
    void validateSpec(Job job, FieldErrors errs) {
        generatedSelector(job, errs);
        spec(job.spec(), "spec", errs);
        JobSpec spec = job.spec();
        if (spec != null
                && JobSpec.INDEXED.equals(spec.completionMode())
                && spec.completions() != null
                && spec.completions() > 0
                && job.name() != null) {
            // Indexed pods get the hostname <job>-<index>, which must be a DNS label.
            String maxHostname = job.name() + "-" + (spec.completions() - 1);
            if (!NameRules.dns1123Label(maxHostname).isEmpty()) {
                errs.add(FieldError.invalid(
                        "metadata.name",
                        job.name(),
                        "will not able to create pod with invalid DNS label: " + maxHostname));
            }
        }
    }

    /** {@code ValidateJobSpec}: the shared spec checks, plus a selector that matches the template. */
    static void spec(JobSpec spec, String path, FieldErrors errs) {
        JobValidation.spec(spec, path, errs);
        if (spec == null) {
            return;
        }
        if (spec.selector() == null) {
            errs.add(FieldError.required(path + ".selector", ""));
            return;
        }
        LabelQuery query;
        try {
            query = LabelQuery.from(spec.selector());
        } catch (SelectorException e) {
            errs.add(FieldError.invalid(path + ".selector", spec.selector(), e.getMessage()));
            return;
        }
        Map<String, String> templateLabels =
                spec.template() == null || spec.template().metadata() == null
                        ? null
                        : spec.template().metadata().labels();
        if (query.isEverything()
                && (spec.selector().matchLabels() == null && spec.selector().matchExpressions() == null)) {
            errs.add(FieldError.invalid(path + ".selector", spec.selector(), "empty selector is invalid for job"));
        }
        if (!query.matches(templateLabels)) {
            errs.add(FieldError.invalid(
                    path + ".template.metadata.labels",
                    templateLabels == null ? Map.of() : templateLabels,
                    "`selector` does not match template `labels`"));
        }
    }

    /** Without manualSelector the selector and the template labels must be exactly the generated ones. */
    private static void generatedSelector(Job job, FieldErrors errs) {
        JobSpec spec = job.spec();
        if (spec == null
                || Boolean.TRUE.equals(spec.manualSelector())
                || spec.template() == null
                || spec.template().metadata() == null
                || spec.template().metadata().labels() == null) {
            return;
        }
        String uid = job.uid() == null ? "" : job.uid();
        String name = job.name() == null ? "" : job.name();
        Map<String, String> labels = spec.template().metadata().labels();
        String path = "spec.template.metadata";
        hasLabel(labels, path, Job.LEGACY_CONTROLLER_UID_LABEL, uid, errs);
        hasLabel(labels, path, Job.LEGACY_JOB_NAME_LABEL, name, errs);
        hasLabel(labels, path, Job.CONTROLLER_UID_LABEL, uid, errs);
        hasLabel(labels, path, Job.JOB_NAME_LABEL, name, errs);
        if (spec.selector() == null) {
            errs.add(FieldError.required("spec.selector", ""));
            return;
        }
        LabelSelector expected = new LabelSelector(Map.of(Job.CONTROLLER_UID_LABEL, uid), null);
        boolean expectedShape = spec.selector().matchExpressions() == null
                || spec.selector().matchExpressions().isEmpty();
        if (!expectedShape || !Objects.equals(spec.selector().matchLabels(), expected.matchLabels())) {
            errs.add(FieldError.invalid("spec.selector", spec.selector(), "`selector` not auto-generated"));
        }
    }

    private static void hasLabel(Map<String, String> labels, String path, String key, String value, FieldErrors errs) {
        String actual = labels.get(key);
        if (actual == null) {
            errs.add(FieldError.required(path + ".labels", "must be '" + value + "'"));
        } else if (!actual.equals(value)) {
            errs.add(FieldError.invalid(path + ".labels", actual, "must be '" + value + "'"));
        }
    }

    @Override
    void validateSpecUpdate(Job newJob, Job oldJob, FieldErrors errs) {
        generatedSelector(newJob, errs);
        spec(newJob.spec(), "spec", errs);
        JobSpec n = newJob.spec();
        JobSpec o = oldJob.spec();
        if (n == null || o == null) {
            return;
        }
        completions(n, o, errs);
        errs.immutable("spec.selector", n.selector(), o.selector());
        templateUpdate(newJob, oldJob, errs);
        errs.immutable("spec.completionMode", n.completionMode(), o.completionMode());
        errs.immutable("spec.podFailurePolicy", n.podFailurePolicy(), o.podFailurePolicy());
        errs.immutable("spec.backoffLimitPerIndex", n.backoffLimitPerIndex(), o.backoffLimitPerIndex());
        errs.immutable("spec.managedBy", n.managedBy(), o.managedBy());
        errs.immutable("spec.successPolicy", n.successPolicy(), o.successPolicy());
    }

    /** Completions are immutable, except an Indexed Job may scale completions together with parallelism. */
    private static void completions(JobSpec n, JobSpec o, FieldErrors errs) {
        if (!n.isIndexed()) {
            errs.immutable("spec.completions", n.completions(), o.completions());
            return;
        }
        if (Objects.equals(n.completions(), o.completions()) || n.completions() == null) {
            return;
        }
        if (!n.completions().equals(n.parallelism())) {
            errs.add(FieldError.invalid(
                    "spec.completions", n.completions(), "can only be modified in tandem with spec.parallelism"));
        }
    }

    /**
     * The template is immutable, except that a suspended Job that never started may change its
     * scheduling directives (node selector, tolerations, affinity, scheduling gates) and the
     * template's labels and annotations.
     */
    private static void templateUpdate(Job newJob, Job oldJob, FieldErrors errs) {
        PodTemplateSpec n = newJob.spec().template();
        PodTemplateSpec o = oldJob.spec().template();
        if (n == null || o == null) {
            errs.immutable("spec.template", n, o);
            return;
        }
        boolean suspendedNotStarted = oldJob.spec().isSuspended()
                && (oldJob.status() == null || oldJob.status().startTime() == null);
        if (suspendedNotStarted && o.spec() != null && n.spec() != null) {
            ObjectMeta oldMeta =
                    o.metadata() == null ? ObjectMetaBuilder.builder().build() : o.metadata();
            ObjectMeta newMeta =
                    n.metadata() == null ? ObjectMetaBuilder.builder().build() : n.metadata();
            o = o.withMetadata(oldMeta.withLabels(newMeta.labels()).withAnnotations(newMeta.annotations()))
                    .withSpec(o.spec()
                            .withNodeSelector(n.spec().nodeSelector())
                            .withTolerations(n.spec().tolerations())
                            .withAffinity(n.spec().affinity())
                            .withSchedulingGates(n.spec().schedulingGates()));
        }
        if (!io.kplane.api.json.Json.toTree(n).equals(io.kplane.api.json.Json.toTree(o))) {
            errs.add(FieldError.invalid("spec.template", n, "field is immutable"));
        }
    }

    @Override
    void validateStatus(Job newJob, Job oldJob, FieldErrors errs) {
        JobStatus s = newJob.status();
        if (s == null) {
            return;
        }
        errs.nonNegative("status.active", s.active());
        errs.nonNegative("status.succeeded", s.succeeded());
        errs.nonNegative("status.failed", s.failed());
        errs.nonNegative("status.ready", s.ready());
        errs.nonNegative("status.terminating", s.terminating());
    }
}
