package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.apiserver.testing.TestApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** kubectl-lite against a real API server on real PostgreSQL, through its command line. */
class KubectlLiteTest {
    private static final String JOB =
            """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: %s
              labels: {app: pi}
            spec:
              backoffLimit: %d
              template:
                spec:
                  containers:
                  - name: pi
                    image: perl
                    command: ["perl", "-e", "print 1"]
                  restartPolicy: Never
            """;

    private static TestApiServer server;
    private static CliRunner cli;

    @BeforeAll
    static void start() {
        server = TestApiServer.start();
        cli = new CliRunner(server.url());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void applyCreatesThenConfiguresThenLeavesUnchanged() {
        CliRunner.Result created = cli.runWithStdin(JOB.formatted("pi", 4), "apply", "-f", "-");
        assertThat(created.err()).isEmpty();
        assertThat(created.out()).isEqualTo("job.batch/pi created\n");
        assertThat(cli.runWithStdin(JOB.formatted("pi", 4), "apply", "-f", "-").out())
                .isEqualTo("job.batch/pi unchanged\n");
        assertThat(cli.runWithStdin(JOB.formatted("pi", 5), "apply", "-f", "-").out())
                .isEqualTo("job.batch/pi configured\n");
        assertThat(cli.run("get", "job", "pi", "-o", "jsonpath={.spec.backoffLimit}")
                        .out())
                .isEqualTo("5");
    }

    /**
     * The same gets through {@link QuickGet} (plain forms) and through picocli (forms {@code QuickGet} leaves to
     * it) print the same output, errors and exit codes. Ages are whole seconds: compared within one second.
     */
    @Test
    void aGetParsedWithoutPicocliPrintsWhatPicocliParsedOnePrints() {
        cli.runWithStdin(JOB.formatted("both", 1), "create", "-f", "-");
        String[][] pairs = {
            {"get jobs", "get jobs --namespace=default"},
            {"get jobs -o wide --no-headers", "get jobs -owide --no-headers"},
            {"get job both -o yaml", "get job both --output=yaml"},
            {"get jobs -A", "get -A -- jobs"},
            {"get jobs -l app=pi -o name", "get jobs --selector=app=pi -oname"},
            {"get job nosuch", "get job nosuch --namespace=default"},
            {"get widgets", "get widgets --namespace=default"},
            {"get jobs -n empty", "get jobs --namespace=empty"}
        };
        for (String[] pair : pairs) {
            assertThat(QuickGet.parse(pair[0].split(" "))).as(pair[0]).isNotNull();
            assertThat(QuickGet.parse(pair[1].split(" "))).as(pair[1]).isNull();
            CliRunner.Result quick = null;
            CliRunner.Result picocli = null;
            for (int attempt = 0; attempt < 3 && (quick == null || !quick.equals(picocli)); attempt++) {
                quick = cli.run(pair[0].split(" "));
                picocli = cli.run(pair[1].split(" "));
            }
            assertThat(quick).as(pair[0]).isEqualTo(picocli);
        }
    }

    @Test
    void getPrintsTheServersColumns() {
        cli.runWithStdin(JOB.formatted("table", 1), "create", "-f", "-");
        CliRunner.Result r = cli.run("get", "jobs");
        assertThat(r.code()).isZero();
        assertThat(r.out().lines().findFirst().orElse(""))
                .startsWith("NAME")
                .contains("STATUS", "COMPLETIONS", "DURATION", "AGE");
        assertThat(r.out()).containsPattern("table\\s+Running\\s+0/1");
        assertThat(cli.run("get", "jobs", "-o", "wide").out()).contains("CONTAINERS", "IMAGES", "SELECTOR", "perl");
        assertThat(cli.run("get", "job/table", "-o", "name").out()).isEqualTo("job.batch/table\n");
        assertThat(cli.run("get", "jobs", "-l", "app=nomatch").err())
                .contains("No resources found in default namespace.");
        assertThat(cli.run("get", "job", "table", "-o", "yaml").out()).contains("kind: Job", "name: table");
        assertThat(cli.run("get", "namespaces").out()).containsPattern("default\\s+Active");
    }

    @Test
    void patchSuspendWaitAndDelete() {
        cli.runWithStdin(JOB.formatted("p", 1), "create", "-f", "-");
        assertThat(cli.run("patch", "job", "p", "--type", "merge", "-p", "{\"spec\":{\"backoffLimit\":2}}")
                        .out())
                .isEqualTo("job.batch/p patched\n");
        assertThat(cli.run("patch", "job", "p", "--type", "merge", "-p", "{\"spec\":{\"backoffLimit\":2}}")
                        .out())
                .isEqualTo("job.batch/p patched (no change)\n");
        assertThat(cli.run("suspend", "job/p").out()).isEqualTo("job.batch/p suspended\n");
        assertThat(cli.run("get", "job", "p", "-o", "jsonpath={.spec.suspend}").out())
                .isEqualTo("true");
        CliRunner.Result timeout = cli.run("wait", "--for=condition=complete", "job/p", "--timeout=1s");
        assertThat(timeout.code()).isEqualTo(1);
        assertThat(timeout.err()).contains("timed out waiting for the condition on jobs/p");
        assertThat(cli.run("delete", "job", "p", "--cascade=background").out()).isEqualTo("job.batch \"p\" deleted\n");
        assertThat(cli.run("delete", "job", "p", "--ignore-not-found").code()).isZero();
    }

    @Test
    void errorsAreOneLineAndNonZero() throws Exception {
        CliRunner.Result notFound = cli.run("get", "job", "nosuch");
        assertThat(notFound.code()).isEqualTo(1);
        assertThat(notFound.err().strip()).isEqualTo("Error from server (NotFound): jobs.batch \"nosuch\" not found");

        CliRunner.Result invalid = cli.runWithStdin(JOB.formatted("Bad_Name", 1), "create", "-f", "-");
        assertThat(invalid.code()).isEqualTo(1);
        assertThat(invalid.err()).contains("is invalid", "metadata.name");

        Path bad = Files.createTempFile("bad", ".yaml");
        Files.writeString(bad, "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: [oops\n");
        CliRunner.Result yaml = cli.run("apply", "-f", bad.toString());
        assertThat(yaml.code()).isEqualTo(1);
        assertThat(yaml.err()).contains(bad.toString()).contains("line");
        assertThat(yaml.err().lines().count()).isEqualTo(1);

        CliRunner.Result unknown = cli.run("get", "widgets");
        assertThat(unknown.err().strip()).isEqualTo("error: the server doesn't have a resource type \"widgets\"");

        CliRunner.Result unreachable = new CliRunner("http://127.0.0.1:1").run("get", "pods");
        assertThat(unreachable.code()).isEqualTo(1);
        assertThat(unreachable.err()).startsWith("cannot reach the apiserver at http://127.0.0.1:1");
    }

    @Test
    void describeAndCreateJobFromCronJob() {
        String cron =
                """
                apiVersion: batch/v1
                kind: CronJob
                metadata: {name: hello}
                spec:
                  schedule: "*/5 * * * *"
                  jobTemplate:
                    spec:
                      template:
                        spec:
                          containers: [{name: hello, image: busybox, command: [sh, -c, date]}]
                          restartPolicy: OnFailure
                """;
        assertThat(cli.runWithStdin(cron, "apply", "-f", "-").out()).isEqualTo("cronjob.batch/hello created\n");
        assertThat(cli.run("create", "job", "manual-1", "--from=cronjob/hello").out())
                .isEqualTo("job.batch/manual-1 created\n");
        String describe = cli.run("describe", "job", "manual-1").out();
        assertThat(describe)
                .containsPattern("Name:\\s+manual-1")
                .contains("Controlled By:", "CronJob/hello", "Pods Statuses:", "Pod Template:", "busybox", "Events:");
        assertThat(cli.run("describe", "cronjob", "hello").out()).containsPattern("Schedule:\\s+\\*/5 \\* \\* \\* \\*");
        assertThat(cli.run("get", "cronjobs").out())
                .containsPattern("hello\\s+\\*/5 \\* \\* \\* \\*\\s+<none>\\s+(False|<unset>)\\s+0");
    }

    @Test
    void versionApiResourcesAndCompletion() {
        assertThat(cli.run("version").out()).contains("Server Version: v1.32");
        assertThat(cli.run("api-resources").out()).containsPattern("cronjobs\\s+cj\\s+batch/v1\\s+true\\s+CronJob");
        assertThat(cli.run("completion", "bash").out()).contains("complete -F");
        assertThat(cli.run("cluster-info").out())
                .isEqualTo("Kubernetes control plane is running at " + server.url() + "\n");
        assertThat(new CliRunner("http://127.0.0.1:1").run("cluster-info").code())
                .isEqualTo(1);
    }
}
