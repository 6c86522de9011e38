package io.kplane.kubectl.clock;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.CronSchedule;
import io.kplane.api.batch.CronScheduleTicks;
import io.kplane.api.clock.Clock;
import io.kplane.api.json.Json;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.ResourceRef;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kubectl-lite cronjob next NAME [-n 5]}: the next run times, in the CronJob's time zone, with their Job names. */
@Command(name = "cronjob", description = "CronJob tools.", subcommands = CronJobCommand.Next.class)
public class CronJobCommand extends BaseCommand {
    @Override
    public Integer call() {
        throw new CliException("error: a subcommand is required: next");
    }

    @Command(name = "next", description = "Show a CronJob's next run times (cluster clock) and the Job each creates.")
    public static final class Next extends BaseCommand {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Option(
                names = {"-c", "--count"},
                defaultValue = "5",
                description = "how many runs (default 5)")
        int count;

        @Override
        public Integer call() {
            JsonNode node =
                    api().getOrNull(ResourceRef.collectionPath(ResourceTypes.CRONJOBS, namespace()) + "/" + name);
            if (node == null) {
                throw new CliException("Error from server (NotFound): cronjobs.batch \"" + name + "\" not found");
            }
            CronJob cronJob = Json.mapper().convertValue(node, CronJob.class);
            CronSchedule schedule;
            try {
                schedule = CronSchedule.parse(
                        cronJob.spec().schedule(), cronJob.spec().timeZone());
            } catch (RuntimeException e) {
                throw new CliException("error: cannot parse the schedule of cronjob " + name + ": " + e.getMessage());
            }
            JsonNode clockNode = api().getOrNull(ClockApi.PATH);
            Instant now = clockNode == null
                    ? Instant.now()
                    : Json.mapper()
                            .convertValue(clockNode, Clock.class)
                            .clusterTime()
                            .at(Instant.now());
            String zone =
                    cronJob.spec().timeZone() == null ? "UTC" : cronJob.spec().timeZone();
            out().printf("%-27s  %-20s  %s%n", "SCHEDULED (" + zone + ")", "UTC", "JOB");
            for (CronScheduleTicks.Tick t : CronScheduleTicks.next(schedule, name, now, count)) {
                out().printf("%-27s  %-20s  %s%n", t.local(), Json.formatTime(t.time()), t.jobName());
            }
            out().flush();
            return 0;
        }
    }
}
