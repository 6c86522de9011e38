package io.kplane.kubectl.cmd;

import io.kplane.api.ResourceTypes;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.CliException;
import io.kplane.kubectl.ResourceRef;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code suspend job/NAME | cronjob/NAME}: sets {@code spec.suspend}; {@code resume} clears it. */
@Command(name = "suspend", description = "Suspend a job or cronjob (spec.suspend=true).")
public class SuspendCommand extends BaseCommand {
    @Parameters(arity = "1..2", paramLabel = "TYPE NAME | TYPE/NAME")
    List<String> args;

    protected boolean suspend() {
        return true;
    }

    @Override
    public Integer call() {
        for (ResourceRef ref : ResourceRef.parse(args, namespace())) {
            if (ref.name() == null) {
                throw new CliException("error: a resource name is required");
            }
            if (!ref.type().equals(ResourceTypes.JOBS) && !ref.type().equals(ResourceTypes.CRONJOBS)) {
                throw new CliException("error: only jobs and cronjobs can be suspended, not "
                        + ref.type().resource());
            }
            api().call(
                            "PATCH",
                            ref.path(),
                            Map.of("fieldManager", "kubectl-lite"),
                            ("{\"spec\":{\"suspend\":" + suspend() + "}}").getBytes(StandardCharsets.UTF_8),
                            "application/merge-patch+json",
                            "application/json");
            out().println(ref.display() + (suspend() ? " suspended" : " resumed"));
        }
        out().flush();
        return 0;
    }

    @Command(name = "resume", description = "Resume a suspended job or cronjob (spec.suspend=false).")
    public static final class Resume extends SuspendCommand {
        @Override
        protected boolean suspend() {
            return false;
        }
    }
}
