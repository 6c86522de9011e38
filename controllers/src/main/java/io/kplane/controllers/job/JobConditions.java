package io.kplane.controllers.job;

import io.kplane.api.batch.JobCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Condition bookkeeping with Kubernetes' rules (upstream {@code ensureJobConditionStatus}). */
final class JobConditions {
    static final String TRUE = "True";
    static final String FALSE = "False";

    private JobConditions() {}

    static JobCondition newCondition(String type, String status, String reason, String message, Instant now) {
        return new JobCondition(type, status, now, now, reason, message);
    }

    /**
     * Sets the condition of {@code type} to the given status, reason and message. A False condition
     * is never added when absent. The transition time moves only when the status changes.
     *
     * @return the new list, or {@code null} when nothing changed
     */
    static List<JobCondition> ensure(
            List<JobCondition> conditions, String type, String status, String reason, String message, Instant now) {
        List<JobCondition> result = new ArrayList<>(conditions == null ? List.of() : conditions);
        for (int i = 0; i < result.size(); i++) {
            JobCondition c = result.get(i);
            if (type.equals(c.type())) {
                if (status.equals(c.status()) && eq(reason, c.reason()) && eq(message, c.message())) {
                    return null;
                }
                Instant transition = status.equals(c.status()) ? c.lastTransitionTime() : now;
                result.set(i, new JobCondition(type, status, now, transition, reason, message));
                return result;
            }
        }
        if (FALSE.equals(status)) {
            return null;
        }
        result.add(newCondition(type, status, reason, message, now));
        return result;
    }

    static JobCondition find(List<JobCondition> conditions, String type) {
        if (conditions != null) {
            for (JobCondition c : conditions) {
                if (type.equals(c.type())) {
                    return c;
                }
            }
        }
        return null;
    }

    private static boolean eq(String a, String b) {
        return (a == null ? "" : a).equals(b == null ? "" : b);
    }
}
