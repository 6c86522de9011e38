package io.kplane.controllers.job;

import io.kplane.client.lens.LensListener;
import io.kplane.client.lens.LensRecord;
import io.kplane.client.lens.LensRecorder;
import io.kplane.client.lens.SyncSummary;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;

/**
 * Upstream's Job controller metrics, derived from the lens's sync records (no second bookkeeping):
 * {@code job_controller_job_sync_duration_seconds} and {@code job_controller_job_syncs_total}
 * (labels {@code result} success/error, {@code action} reconciling/tracking/pods_created/pods_deleted),
 * {@code job_controller_jobs_finished_total} (completion_mode, result succeeded/failed, reason) once the
 * finishing status write succeeded, and {@code job_controller_job_pods_finished_total} (completion_mode,
 * result) for the pods a sync newly counted.
 */
final class JobControllerMetrics implements LensListener {
    /** The saw entry {action → pods} a sync fills when it handles failed pods with a podFailurePolicy (FinalizerTracker). */
    static final String SAW_POLICY_ACTIONS = "podFailurePolicyActions";

    static final String POLICY_METRIC = "job_controller_pod_failures_handled_by_failure_policy";
    private static final String POLICY_HELP = "The number of failed Pods handled by failure policy with respect to the "
            + "failure policy action applied based on the matched rule. Possible values of the action label correspond "
            + "to the possible values for the failure policy rule action, which are: \"FailJob\", \"Ignore\" and \"Count\".";
    private final MeterRegistry registry;

    private JobControllerMetrics(MeterRegistry registry) {
        this.registry = registry;
        // the documented actions, at zero from the start: the scrape's names do not depend on what happened
        for (String action : java.util.List.of("FailJob", "Ignore", "Count")) {
            policyCounter(action);
        }
    }

    private Counter policyCounter(String action) {
        return Counter.builder(POLICY_METRIC)
                .description(POLICY_HELP)
                .tag("action", action)
                .register(registry);
    }

    static void bind(io.kplane.client.lens.Lens lens, MeterRegistry registry) {
        if (lens instanceof LensRecorder recorder && registry != null) {
            recorder.addListener(new JobControllerMetrics(registry));
        }
    }

    @Override
    public void recorded(LensRecord record) {
        SyncSummary sync = record.sync();
        if (sync == null || !"job".equals(record.controller())) {
            return;
        }
        String result = sync.error() == null ? "success" : "error";
        String decision = sync.decision() == null ? "reconciling" : sync.decision();
        String action = decision.contains("pods_created")
                ? "pods_created"
                : decision.contains("pods_deleted")
                        ? "pods_deleted"
                        : decision.contains("tracking") ? "tracking" : "reconciling";
        Timer.builder("job_controller_job_sync_duration")
                .description("The time it took to sync a job")
                .tags("result", result, "action", action)
                .publishPercentileHistogram()
                .register(registry)
                .record(Duration.ofNanos((long) (sync.durationMs() * 1e6)));
        Counter.builder("job_controller_job_syncs")
                .description("The number of job syncs")
                .tags("result", result, "action", action)
                .register(registry)
                .increment();
        Map<String, Object> saw = sync.saw();
        String mode = String.valueOf(saw.getOrDefault("completionMode", "NonIndexed"));
        if (sync.error() == null) {
            count(
                    "job_controller_job_pods_finished",
                    "The number of finished Pods that are fully tracked",
                    mode,
                    "succeeded",
                    saw.get("newSucceeded"));
            count(
                    "job_controller_job_pods_finished",
                    "The number of finished Pods that are fully tracked",
                    mode,
                    "failed",
                    saw.get("newFailed"));
        }
        if (sync.error() == null && saw.get(SAW_POLICY_ACTIONS) instanceof Map<?, ?> actions) {
            // upstream records these once the sync's status flush went through (recordJobPodFailurePolicyActions)
            actions.forEach((policyAction, n) -> {
                if (n instanceof Number number && number.intValue() > 0) {
                    policyCounter(String.valueOf(policyAction)).increment(number.intValue());
                }
            });
        }
        Object finishing = saw.get("finishing");
        boolean statusWritten =
                sync.writes().stream().anyMatch(w -> w.verb().equals("update status") && w.error() == null);
        if (finishing != null && statusWritten && !"FailureTarget".equals(finishing)) {
            Counter.builder("job_controller_jobs_finished")
                    .description("The number of finished jobs")
                    .tags(
                            "completion_mode",
                            mode,
                            "result",
                            "Complete".equals(finishing) ? "succeeded" : "failed",
                            "reason",
                            String.valueOf(saw.getOrDefault("finishReason", "")))
                    .register(registry)
                    .increment();
        }
    }

    private void count(String name, String help, String mode, String result, Object n) {
        if (n instanceof Number number && number.intValue() > 0) {
            Counter.builder(name)
                    .description(help)
                    .tags("completion_mode", mode, "result", result)
                    .register(registry)
                    .increment(number.intValue());
        }
    }
}
