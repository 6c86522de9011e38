package io.kplane.apiserver.kubectl;

import static io.kplane.apiserver.kubectl.ObjectFields.at;
import static io.kplane.apiserver.kubectl.ObjectFields.hasTrueCondition;
import static io.kplane.apiserver.kubectl.ObjectFields.text;
import static io.kplane.apiserver.kubectl.ObjectFields.time;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.util.HumanDuration;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Jobs: NAME STATUS COMPLETIONS DURATION AGE, wide CONTAINERS IMAGES SELECTOR, as kubectl 1.32's
 * {@code printJob}: COMPLETIONS is {@code succeeded/completions}, or {@code succeeded/1 of parallelism}
 * for a work-queue Job (completions unset) with parallelism above one.
 */
final class JobPrinter implements ResourcePrinter {
    private static final List<TableColumn> COLUMNS = List.of(
            TableColumn.nameColumn(),
            TableColumn.of("Status", "Status of the job."),
            TableColumn.of("Completions", "The number of pods which reached phase Succeeded."),
            TableColumn.of("Duration", "Time required to complete the job."),
            TableColumn.ageColumn(),
            TableColumn.wide("Containers", "Names of each container in the template."),
            TableColumn.wide("Images", "Images referenced by each container in the template."),
            TableColumn.wide("Selector", "A label query over pods that should match the pod count."));

    @Override
    public List<TableColumn> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode job, Instant now) {
        long succeeded = ObjectFields.number(job, "status.succeeded");
        JsonNode completions = at(job, "spec.completions");
        String completionsCell;
        if (completions.isNumber()) {
            completionsCell = succeeded + "/" + completions.asLong();
        } else {
            long parallelism = at(job, "spec.parallelism").asLong(0);
            completionsCell = parallelism > 1 ? succeeded + "/1 of " + parallelism : succeeded + "/1";
        }
        Instant start = time(job, "status.startTime");
        Instant completion = time(job, "status.completionTime");
        String duration = "";
        if (start != null) {
            duration = HumanDuration.format(Duration.between(start, completion == null ? now : completion));
        }
        String[] containers = ObjectFields.containerCells(at(job, "spec.template.spec.containers"));
        return List.of(
                text(job, "metadata.name"),
                status(job),
                completionsCell,
                duration,
                HumanDuration.since(time(job, "metadata.creationTimestamp"), now),
                containers[0],
                containers[1],
                ObjectFields.formatSelector(at(job, "spec.selector")));
    }

    static String status(JsonNode job) {
        if (hasTrueCondition(job, "status.conditions", "Complete")) {
            return "Complete";
        } else if (hasTrueCondition(job, "status.conditions", "Failed")) {
            return "Failed";
        } else if (!text(job, "metadata.deletionTimestamp").isEmpty()) {
            return "Terminating";
        } else if (hasTrueCondition(job, "status.conditions", "Suspended")) {
            return "Suspended";
        } else if (hasTrueCondition(job, "status.conditions", "FailureTarget")) {
            return "FailureTarget";
        } else if (hasTrueCondition(job, "status.conditions", "SuccessCriteriaMet")) {
            return "SuccessCriteriaMet";
        }
        return "Running";
    }
}
