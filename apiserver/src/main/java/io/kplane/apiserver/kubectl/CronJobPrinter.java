package io.kplane.apiserver.kubectl;

import static io.kplane.apiserver.kubectl.ObjectFields.at;
import static io.kplane.apiserver.kubectl.ObjectFields.text;
import static io.kplane.apiserver.kubectl.ObjectFields.time;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.util.HumanDuration;
import java.time.Instant;
import java.util.List;

/** CronJobs: NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE, wide CONTAINERS IMAGES SELECTOR. */
final class CronJobPrinter implements ResourcePrinter {
    private static final List<TableColumn> COLUMNS = List.of(
            TableColumn.nameColumn(),
            TableColumn.of("Schedule", "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
            TableColumn.of("Timezone", "The time zone name for the given schedule."),
            TableColumn.of("Suspend", "This flag tells the controller to suspend subsequent executions.")
                    .withType("boolean"),
            TableColumn.of("Active", "A list of pointers to currently running jobs.")
                    .withType("integer"),
            TableColumn.of("Last Schedule", "Information when was the last time the job was successfully scheduled."),
            TableColumn.ageColumn(),
            TableColumn.wide("Containers", "Names of each container in the template."),
            TableColumn.wide("Images", "Images referenced by each container in the template."),
            TableColumn.wide("Selector", "A label query over pods that should match the pod count."));

    @Override
    public List<TableColumn> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode cronJob, Instant now) {
        Instant lastSchedule = time(cronJob, "status.lastScheduleTime");
        JsonNode suspend = at(cronJob, "spec.suspend");
        String suspendCell = suspend.isBoolean() ? (suspend.asBoolean() ? "True" : "False") : "<unset>";
        String[] containers =
                ObjectFields.containerCells(at(cronJob, "spec.jobTemplate.spec.template.spec.containers"));
        return List.of(
                text(cronJob, "metadata.name"),
                text(cronJob, "spec.schedule"),
                ObjectFields.textOr(cronJob, "spec.timeZone", "<none>"),
                suspendCell,
                (long) ObjectFields.list(cronJob, "status.active").size(),
                lastSchedule == null ? "<none>" : HumanDuration.since(lastSchedule, now),
                HumanDuration.since(time(cronJob, "metadata.creationTimestamp"), now),
                containers[0],
                containers[1],
                ObjectFields.formatSelector(at(cronJob, "spec.jobTemplate.spec.selector")));
    }
}
