package io.kplane.controllers.job;

import io.kplane.api.batch.PodFailurePolicy;
import io.kplane.api.batch.PodFailurePolicyOnExitCodesRequirement;
import io.kplane.api.batch.PodFailurePolicyOnPodConditionsPattern;
import io.kplane.api.batch.PodFailurePolicyRule;
import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodStatus;
import java.util.List;

/**
 * Evaluates a Job's {@code podFailurePolicy} against one failed pod: rules in order, the first
 * match wins, exit code 0 never matches, a condition pattern's status defaults to True.
 */
public final class PodFailurePolicyMatcher {

    /**
     * The outcome for one pod.
     *
     * @param action       the matched rule's action, or {@code null} when no rule matched
     * @param countsFailed whether the failure counts towards backoffLimit (false only for Ignore)
     * @param failJobMessage the Job's failure message when the action is FailJob, else {@code null}
     */
    public record Match(String action, boolean countsFailed, String failJobMessage) {
        static final Match NONE = new Match(null, true, null);
    }

    private PodFailurePolicyMatcher() {}

    public static Match match(PodFailurePolicy policy, Pod failedPod) {
        if (policy == null) {
            return Match.NONE;
        }
        PodStatus status = failedPod.status();
        List<PodFailurePolicyRule> rules = policy.rulesOrEmpty();
        for (int index = 0; index < rules.size(); index++) {
            PodFailurePolicyRule rule = rules.get(index);
            if (rule.onExitCodes() != null) {
                ContainerStatus container = matchOnExitCodes(status, rule.onExitCodes());
                if (container != null) {
                    String message = String.format(
                            "Container %s for pod %s/%s failed with exit code %d matching %s rule at index %d",
                            container.name(),
                            failedPod.metadata().namespace(),
                            failedPod.metadata().name(),
                            container.state().terminated().exitCode(),
                            rule.action(),
                            index);
                    Match m = outcome(rule.action(), message);
                    if (m != null) {
                        return m;
                    }
                }
            } else if (rule.onPodConditions() != null) {
                PodCondition condition = matchOnPodConditions(status, rule.onPodConditions());
                if (condition != null) {
                    String message = String.format(
                            "Pod %s/%s has condition %s matching %s rule at index %d",
                            failedPod.metadata().namespace(),
                            failedPod.metadata().name(),
                            condition.type(),
                            rule.action(),
                            index);
                    Match m = outcome(rule.action(), message);
                    if (m != null) {
                        return m;
                    }
                }
            }
        }
        return Match.NONE;
    }

    private static Match outcome(String action, String failJobMessage) {
        if (action == null) {
            return null;
        }
        return switch (action) {
            case PodFailurePolicyRule.IGNORE -> new Match(action, false, null);
            case PodFailurePolicyRule.COUNT, PodFailurePolicyRule.FAIL_INDEX -> new Match(action, true, null);
            case PodFailurePolicyRule.FAIL_JOB -> new Match(action, true, failJobMessage);
            default -> null; // an unknown action is skipped, as upstream's switch falls through
        };
    }

    private static ContainerStatus matchOnExitCodes(PodStatus status, PodFailurePolicyOnExitCodesRequirement req) {
        if (status == null) {
            return null;
        }
        ContainerStatus found = matchingContainer(status.containerStatusesOrEmpty(), req);
        if (found != null) {
            return found;
        }
        return matchingContainer(
                status.initContainerStatuses() == null ? List.of() : status.initContainerStatuses(), req);
    }

    private static ContainerStatus matchingContainer(
            List<ContainerStatus> statuses, PodFailurePolicyOnExitCodesRequirement req) {
        for (ContainerStatus cs : statuses) {
            if (cs.state() == null
                    || cs.state().terminated() == null
                    || cs.state().terminated().exitCode() == null) {
                continue; // still running or terminating: no exit code to match
            }
            if (req.containerName() != null && !req.containerName().equals(cs.name())) {
                continue;
            }
            int exitCode = cs.state().terminated().exitCode();
            if (exitCode == 0) {
                continue;
            }
            boolean listed = req.values() != null && req.values().contains(exitCode);
            boolean matches = PodFailurePolicyOnExitCodesRequirement.IN.equals(req.operator())
                    ? listed
                    : PodFailurePolicyOnExitCodesRequirement.NOT_IN.equals(req.operator()) && !listed;
            if (matches) {
                return cs;
            }
        }
        return null;
    }

    private static PodCondition matchOnPodConditions(
            PodStatus status, List<PodFailurePolicyOnPodConditionsPattern> patterns) {
        if (status == null) {
            return null;
        }
        for (PodCondition condition : status.conditionsOrEmpty()) {
            for (PodFailurePolicyOnPodConditionsPattern pattern : patterns) {
                String wanted = pattern.status() == null ? "True" : pattern.status();
                if (pattern.type() != null
                        && pattern.type().equals(condition.type())
                        && wanted.equals(condition.status())) {
                    return condition;
                }
            }
        }
        return null;
    }
}
