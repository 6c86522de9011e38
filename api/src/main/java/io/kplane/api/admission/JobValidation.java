package io.kplane.api.admission;

import io.kplane.api.batch.JobSpec;
import io.kplane.api.batch.PodFailurePolicyOnExitCodesRequirement;
import io.kplane.api.batch.PodFailurePolicyOnPodConditionsPattern;
import io.kplane.api.batch.PodFailurePolicyRule;
import io.kplane.api.core.Container;
import io.kplane.api.core.PodSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Job spec checks shared by Jobs and CronJob job templates ({@code validateJobSpec}). */
final class JobValidation {
    static final int MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;
    static final int MAX_FAILED_INDEXES_LIMIT = 100_000;
    static final int MAX_POD_FAILURE_POLICY_RULES = 20;
    static final int MAX_EXIT_CODE_VALUES = 255;
    static final List<String> COMPLETION_MODES = List.of("NonIndexed", "Indexed");
    static final List<String> POD_FAILURE_ACTIONS = List.of("Count", "FailIndex", "FailJob", "Ignore");
    static final List<String> EXIT_CODE_OPERATORS = List.of("In", "NotIn");
    static final List<String> CONDITION_STATUSES = List.of("False", "True", "Unknown");
    static final List<String> POD_REPLACEMENT_POLICIES = List.of("Failed", "TerminatingOrFailed");

    /** How Go prints the empty exit-code list in "at least one value is required". */
    private static final Object RAW_EMPTY_INT32_SLICE = new GoLiteral("[]int32(nil)");

    private JobValidation() {}

    static void spec(JobSpec spec, String path, FieldErrors errs) {
        if (spec == null) {
            spec = io.kplane.api.batch.JobSpecBuilder.builder().build();
        }
        errs.nonNegative(path + ".parallelism", spec.parallelism());
        errs.nonNegative(path + ".completions", spec.completions());
        errs.nonNegative(path + ".activeDeadlineSeconds", spec.activeDeadlineSeconds());
        errs.nonNegative(path + ".backoffLimit", spec.backoffLimit());
        errs.nonNegative(path + ".ttlSecondsAfterFinished", spec.ttlSecondsAfterFinished());
        errs.nonNegative(path + ".backoffLimitPerIndex", spec.backoffLimitPerIndex());
        if (spec.maxFailedIndexes() != null) {
            errs.nonNegative(path + ".maxFailedIndexes", spec.maxFailedIndexes());
            if (spec.backoffLimitPerIndex() == null) {
                errs.add(FieldError.required(path + ".backoffLimitPerIndex", "when maxFailedIndexes is specified"));
            }
        }
        if (spec.managedBy() != null) {
            if (spec.managedBy().isEmpty()) {
                errs.add(FieldError.required(path + ".managedBy", ""));
            } else if (spec.managedBy().length() > 63) {
                errs.add(FieldError.tooLong(path + ".managedBy", 63));
            }
        }
        String mode = spec.completionMode();
        if (mode != null) {
            if (!COMPLETION_MODES.contains(mode)) {
                errs.add(FieldError.notSupported(path + ".completionMode", mode, COMPLETION_MODES));
            }
            if (JobSpec.INDEXED.equals(mode)) {
                if (spec.completions() == null) {
                    errs.add(FieldError.required(path + ".completions", "when completion mode is Indexed"));
                }
                if (spec.parallelism() != null && spec.parallelism() > MAX_PARALLELISM_FOR_INDEXED_JOB) {
                    errs.add(FieldError.invalid(
                            path + ".parallelism",
                            spec.parallelism(),
                            "must be less than or equal to " + MAX_PARALLELISM_FOR_INDEXED_JOB
                                    + " when completion mode is Indexed"));
                }
                if (spec.completions() != null
                        && spec.maxFailedIndexes() != null
                        && spec.maxFailedIndexes() > spec.completions()) {
                    errs.add(FieldError.invalid(
                            path + ".maxFailedIndexes",
                            spec.maxFailedIndexes(),
                            "must be less than or equal to completions"));
                }
                if (spec.maxFailedIndexes() != null && spec.maxFailedIndexes() > MAX_FAILED_INDEXES_LIMIT) {
                    errs.add(FieldError.invalid(
                            path + ".maxFailedIndexes",
                            spec.maxFailedIndexes(),
                            "must be less than or equal to " + MAX_FAILED_INDEXES_LIMIT));
                }
            }
        }
        if (mode == null || JobSpec.NON_INDEXED.equals(mode)) {
            if (spec.backoffLimitPerIndex() != null) {
                errs.add(FieldError.invalid(
                        path + ".backoffLimitPerIndex",
                        spec.backoffLimitPerIndex(),
                        "requires indexed completion mode"));
            }
            if (spec.maxFailedIndexes() != null) {
                errs.add(FieldError.invalid(
                        path + ".maxFailedIndexes", spec.maxFailedIndexes(), "requires indexed completion mode"));
            }
        }
        if (spec.podFailurePolicy() != null) {
            podFailurePolicy(spec, path + ".podFailurePolicy", errs);
        }
        podReplacementPolicy(spec, path + ".podReplacementPolicy", errs);
        PodValidation.template(spec.template(), path + ".template", errs);

        String restartPolicy = spec.template() == null || spec.template().spec() == null
                ? null
                : spec.template().spec().restartPolicy();
        String restartPath = path + ".template.spec.restartPolicy";
        // An unset restartPolicy was defaulted to Always, so both read as "not chosen" here.
        if (restartPolicy == null || restartPolicy.isEmpty() || restartPolicy.equals(PodSpec.RESTART_ALWAYS)) {
            errs.add(FieldError.required(restartPath, "valid values: \"OnFailure\", \"Never\""));
        } else if (!restartPolicy.equals(PodSpec.RESTART_ON_FAILURE) && !restartPolicy.equals(PodSpec.RESTART_NEVER)) {
            errs.add(FieldError.notSupported(restartPath, restartPolicy, List.of("OnFailure", "Never")));
        } else if (spec.podFailurePolicy() != null && !restartPolicy.equals(PodSpec.RESTART_NEVER)) {
            errs.add(FieldError.invalid(
                    restartPath, restartPolicy, "only \"Never\" is supported when podFailurePolicy is specified"));
        }
    }

    private static void podFailurePolicy(JobSpec spec, String path, FieldErrors errs) {
        List<PodFailurePolicyRule> rules = spec.podFailurePolicy().rulesOrEmpty();
        String rulesPath = path + ".rules";
        if (rules.size() > MAX_POD_FAILURE_POLICY_RULES) {
            errs.add(FieldError.tooMany(rulesPath, rules.size(), MAX_POD_FAILURE_POLICY_RULES));
        }
        Set<String> containerNames = new HashSet<>();
        if (spec.template() != null && spec.template().spec() != null) {
            for (Container c : spec.template().spec().containersOrEmpty()) {
                containerNames.add(c.name());
            }
            for (Container c : spec.template().spec().initContainersOrEmpty()) {
                containerNames.add(c.name());
            }
        }
        for (int i = 0; i < rules.size(); i++) {
            rule(spec, rules.get(i), FieldErrors.index(rulesPath, i), containerNames, errs);
        }
    }

    private static void rule(
            JobSpec spec, PodFailurePolicyRule rule, String path, Set<String> containerNames, FieldErrors errs) {
        String actionPath = path + ".action";
        if (rule.action() == null || rule.action().isEmpty()) {
            errs.add(FieldError.required(actionPath, "valid values: " + GoValues.goSlice(POD_FAILURE_ACTIONS)));
        } else if (rule.action().equals(PodFailurePolicyRule.FAIL_INDEX)) {
            if (spec.backoffLimitPerIndex() == null) {
                errs.add(FieldError.invalid(actionPath, rule.action(), "requires the backoffLimitPerIndex to be set"));
            }
        } else if (!POD_FAILURE_ACTIONS.contains(rule.action())) {
            errs.add(FieldError.notSupported(actionPath, rule.action(), POD_FAILURE_ACTIONS));
        }
        boolean hasConditions =
                rule.onPodConditions() != null && !rule.onPodConditions().isEmpty();
        if (rule.onExitCodes() != null) {
            onExitCodes(rule.onExitCodes(), path + ".onExitCodes", containerNames, errs);
        }
        if (hasConditions) {
            onPodConditions(rule.onPodConditions(), path + ".onPodConditions", errs);
        }
        if (rule.onExitCodes() != null && hasConditions) {
            errs.add(FieldError.invalid(
                    path, FieldError.OMIT, "specifying both OnExitCodes and OnPodConditions is not supported"));
        }
        if (rule.onExitCodes() == null && !hasConditions) {
            errs.add(FieldError.invalid(
                    path, FieldError.OMIT, "specifying one of OnExitCodes and OnPodConditions is required"));
        }
    }

    private static void onExitCodes(
            PodFailurePolicyOnExitCodesRequirement req, String path, Set<String> containerNames, FieldErrors errs) {
        String op = req.operator();
        if (op == null || op.isEmpty()) {
            errs.add(FieldError.required(path + ".operator", "valid values: " + GoValues.goSlice(EXIT_CODE_OPERATORS)));
        } else if (!EXIT_CODE_OPERATORS.contains(op)) {
            errs.add(FieldError.notSupported(path + ".operator", op, EXIT_CODE_OPERATORS));
        }
        if (req.containerName() != null && !containerNames.contains(req.containerName())) {
            errs.add(FieldError.invalid(
                    path + ".containerName",
                    req.containerName(),
                    "must be one of the container or initContainer names in the pod template"));
        }
        List<Integer> values = req.values() == null ? List.of() : req.values();
        String valuesPath = path + ".values";
        if (values.isEmpty()) {
            errs.add(FieldError.invalid(valuesPath, RAW_EMPTY_INT32_SLICE, "at least one value is required"));
        } else if (values.size() > MAX_EXIT_CODE_VALUES) {
            errs.add(FieldError.tooMany(valuesPath, values.size(), MAX_EXIT_CODE_VALUES));
        } else {
            boolean ordered = true;
            Set<Integer> unique = new HashSet<>();
            for (int j = 0; j < values.size(); j++) {
                Integer v = values.get(j);
                String valuePath = FieldErrors.index(valuesPath, j);
                if (PodFailurePolicyOnExitCodesRequirement.IN.equals(op) && v == 0) {
                    errs.add(FieldError.invalid(valuePath, v, "must not be 0 for the In operator"));
                }
                if (!unique.add(v)) {
                    errs.add(FieldError.duplicate(valuePath, v));
                }
                if (j > 0 && values.get(j - 1) > v) {
                    ordered = false;
                }
            }
            if (!ordered) {
                errs.add(FieldError.invalid(valuesPath, values, "must be ordered"));
            }
        }
    }

    private static void onPodConditions(
            List<PodFailurePolicyOnPodConditionsPattern> patterns, String path, FieldErrors errs) {
        for (int j = 0; j < patterns.size(); j++) {
            PodFailurePolicyOnPodConditionsPattern p = patterns.get(j);
            String patternPath = FieldErrors.index(path, j);
            String type = p.type() == null ? "" : p.type();
            if (type.isEmpty()) {
                errs.add(FieldError.required(patternPath + ".type", "name part must be non-empty"));
            } else {
                errs.invalidEach(patternPath + ".type", type, NameRules.qualifiedName(type));
            }
            if (p.status() == null || p.status().isEmpty()) {
                errs.add(FieldError.required(
                        patternPath + ".status", "valid values: " + GoValues.goSlice(CONDITION_STATUSES)));
            } else if (!CONDITION_STATUSES.contains(p.status())) {
                errs.add(FieldError.notSupported(patternPath + ".status", p.status(), CONDITION_STATUSES));
            }
        }
    }

    private static void podReplacementPolicy(JobSpec spec, String path, FieldErrors errs) {
        String policy = spec.podReplacementPolicy();
        if (policy == null) {
            return;
        }
        if (spec.podFailurePolicy() != null) {
            if (!policy.equals(JobSpec.REPLACE_FAILED)) {
                errs.add(FieldError.notSupported(path, policy, List.of("Failed")));
            }
        } else if (!POD_REPLACEMENT_POLICIES.contains(policy)) {
            errs.add(FieldError.notSupported(path, policy, POD_REPLACEMENT_POLICIES));
        }
    }
}
