package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.api.core.Node;
import io.kplane.api.core.PersistentVolume;
import io.kplane.api.core.PersistentVolumeClaim;
import io.kplane.api.core.Pod;
import io.kplane.api.json.Json;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.events.ApiEventRecorder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.client.time.FakeClock;
import io.kplane.controllers.cronjob.ApiJobControl;
import io.kplane.controllers.cronjob.CronJobController;
import io.kplane.controllers.job.JobController;
import io.kplane.controllers.job.JobSyncConfig;
import io.kplane.controllers.runtime.ControllerContext;
import io.kplane.controllers.scheduler.Scheduler;
import io.kplane.controllers.volume.LocalPathProvisioner;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code examples/backup-cronjob.yaml} end to end, all parts real: the real kubectl applies the bundle to
 * a real API server on PostgreSQL; the scheduler, Job and CronJob controllers and the local-path
 * provisioner run against it, and a kubelet-sim (process runtime) runs the pods with their volumes. The
 * CronJob controller alone runs on a {@link FakeClock}, so two "every minute" runs take seconds.
 */
class BackupBundleTest {
    // static state: the docker subclass runs the same test after this class's @AfterAll has cleaned up
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static TestApiServer api;
    static KubeClient client;
    static SharedInformerFactory informers;
    static Scheduler scheduler;
    static JobController jobs;
    static CronJobController cronJobs;
    static LocalPathProvisioner provisioner;
    static Kubelet kubelet;
    static FakeClock cronClock;
    static Path work;

    @BeforeAll
    static void start() throws Exception {
        startStack("process", null);
    }

    /** The whole stack with a kubelet of {@code runtime}; the docker variant calls this itself. */
    static void startStack(String runtime, String dockerHost) throws Exception {
        api = TestApiServer.start();
        client = KubeClient.create(ClientConfig.forServer(api.url()));
        work = Files.createTempDirectory("backup-bundle");
        informers = new SharedInformerFactory(client, Clock.system());
        ApiEventRecorder events = new ApiEventRecorder(client, "test", "test", Clock.system());
        scheduler = new Scheduler(
                informers.informerFor(Pod.class),
                informers.informerFor(Node.class),
                client,
                events,
                Clock.system(),
                Duration.ofSeconds(1));
        jobs = new JobController(
                new ControllerContext(client, informers, Clock.system(), events, new SimpleMeterRegistry(), 2, "test"),
                JobSyncConfig.defaults());
        cronClock = new FakeClock(Instant.now());
        cronJobs = new CronJobController(
                informers.informerFor(CronJob.class),
                informers.informerFor(Job.class),
                new ApiJobControl(client),
                events,
                cronClock,
                1);
        provisioner = new LocalPathProvisioner(
                informers.informerFor(PersistentVolumeClaim.class),
                informers.informerFor(PersistentVolume.class),
                client,
                Clock.system(),
                work.resolve("volumes"),
                1);
        informers.start();
        assertThat(informers.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
        scheduler.startWorkers();
        jobs.startWorkers();
        cronJobs.startWorkers();
        provisioner.startWorkers();
        kubelet = new Kubelet(
                        KubeletConfig.defaults(
                                        ClientConfig.forServer(api.url()), "backup-node", work.resolve("kubelet"))
                                .withLeaseInterval(Duration.ofSeconds(1))
                                .withRuntime(runtime, dockerHost),
                        Clock.system())
                .withVolumeSyncPeriod(Duration.ofMillis(500))
                .start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (kubelet != null) {
            kubelet.shutdownNode(Duration.ZERO); // the docker variant's containers are removed, not left running
        }
        if (provisioner != null) {
            provisioner.stop(Duration.ofSeconds(5));
            cronJobs.stop(Duration.ofSeconds(5));
            jobs.close();
            scheduler.stop(Duration.ofSeconds(5));
            informers.shutdown();
        }
        if (api != null) {
            api.close();
        }
        kubelet = null;
        provisioner = null;
        api = null;
    }

    @Test
    void backupCronJobBundleRunsTwiceAndKeepsBothResultsOnItsClaim() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/kubectl")), "the real kubectl is not installed");
        Assumptions.assumeTrue(api != null, "no stack (see the reason printed above)");
        String apply = kubectl(
                "apply", "-f", ROOT.resolve("examples/backup-cronjob.yaml").toString());
        assertThat(apply)
                .contains(
                        "namespace/backup created",
                        "serviceaccount/backup created",
                        "role.rbac.authorization.k8s.io/backup created",
                        "rolebinding.rbac.authorization.k8s.io/backup created",
                        "configmap/backup-script created",
                        "secret/backup-creds created",
                        "persistentvolumeclaim/backup-data created",
                        "cronjob.batch/backup created");

        PersistentVolumeClaim claim = await("claim bound")
                .atMost(Duration.ofSeconds(20))
                .until(
                        () -> client.resource(PersistentVolumeClaim.class)
                                .inNamespace("backup")
                                .get("backup-data"),
                        c -> c.status() != null && "Bound".equals(c.status().phase()));
        PersistentVolume volume =
                client.resource(PersistentVolume.class).get(claim.spec().volumeName());
        Path claimDir = Path.of(volume.spec().hostPath().path());

        List<String> finished = new ArrayList<>();
        for (int run = 1; run <= 2; run++) {
            // the next minute of the CronJob controller's clock: one scheduled run. Never before the real now:
            // a scheduled time before the CronJob's creationTimestamp (real time) would not run.
            Instant base = cronClock.now().isAfter(Instant.now()) ? cronClock.now() : Instant.now();
            Instant next = base.truncatedTo(ChronoUnit.MINUTES)
                    .plus(Duration.ofMinutes(1))
                    .plusSeconds(1);
            cronClock.setTime(next);
            int expected = run;
            await("run " + run + " complete")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> completed(), l -> l.size() >= expected);
            finished = completed();
        }
        assertThat(finished).hasSize(2);
        try (Stream<Path> files = Files.list(claimDir)) {
            List<String> names =
                    files.map(p -> p.getFileName().toString()).sorted().toList();
            assertThat(names).hasSize(2).allMatch(n -> n.startsWith("backup-") && n.endsWith(".txt"));
            for (String n : names) {
                assertThat(Files.readString(claimDir.resolve(n)))
                        .isEqualTo("dump of db.backup.svc taken by " + n.substring(0, n.length() - 4) + "\n");
            }
        }
        String logs = kubectl("logs", "-n", "backup", "job/" + finished.get(0));
        assertThat(logs).contains("backing up db.backup.svc as backup-operator", "backup written to /backups/backup-");
        // nothing of the pod's volumes leaked onto the node's own paths
        assertThat(Path.of("/scripts")).doesNotExist();
        assertThat(Path.of("/backups")).doesNotExist();
    }

    private static List<String> completed() {
        List<String> names = new ArrayList<>();
        for (Job j : client.jobs().inNamespace("backup").list()) {
            boolean failed = j.status() != null
                    && j.status().failed() != null
                    && j.status().failed() > 0;
            assertThat(failed)
                    .as("job %s failed: %s", j.name(), Json.write(j.status()))
                    .isFalse();
            if (j.status() != null
                    && j.status().succeeded() != null
                    && j.status().succeeded() == 1) {
                names.add(j.name());
            }
        }
        names.sort(String::compareTo);
        return names;
    }

    private static String kubectl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--server", api.url()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("HOME", work.toString()); // a fresh discovery cache
        pb.environment().remove("KUBECONFIG");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue())
                .as("kubectl %s:\n%s", String.join(" ", args), out)
                .isZero();
        return out;
    }
}
