package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.PersistentVolume;
import io.kplane.api.core.PersistentVolumeClaim;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.volume.LocalPathProvisioner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The kinds manifests bring along, with the real kubectl next to kubectl-lite on a {@link MiniCluster}
 * plus the local-path provisioner: a backup-style bundle applies whole; a file mixing a Job with a kind
 * kplane does not serve applies the Job and reports the other as kubectl does against a real cluster;
 * {@code get} columns and {@code describe} sections match kubectl's; a Job whose pods name a missing
 * ServiceAccount shows FailedCreate.
 */
class ManifestKindsKubectlTest {
    static final String BUNDLE =
            """
            apiVersion: v1
            kind: Namespace
            metadata: {name: backup}
            ---
            apiVersion: v1
            kind: ServiceAccount
            metadata: {name: backup, namespace: backup}
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: Role
            metadata: {name: backup, namespace: backup}
            rules:
            - apiGroups: [""]
              resources: [configmaps, secrets]
              verbs: [get, list]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: RoleBinding
            metadata: {name: backup, namespace: backup}
            roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: backup}
            subjects:
            - {kind: ServiceAccount, name: backup, namespace: backup}
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: backup-script, namespace: backup}
            data:
              run.sh: |
                #!/bin/sh
                echo "backing up as $DB_USER"
            ---
            apiVersion: v1
            kind: Secret
            metadata: {name: backup-creds, namespace: backup}
            type: Opaque
            stringData:
              DB_USER: admin
              DB_PASSWORD: s3cret
            ---
            apiVersion: v1
            kind: PersistentVolumeClaim
            metadata: {name: backup-data, namespace: backup}
            spec:
              accessModes: [ReadWriteOnce]
              resources: {requests: {storage: 1Gi}}
            ---
            apiVersion: batch/v1
            kind: CronJob
            metadata: {name: backup, namespace: backup}
            spec:
              schedule: "0 3 * * *"
              suspend: true
              jobTemplate:
                spec:
                  template:
                    spec:
                      serviceAccountName: backup
                      restartPolicy: OnFailure
                      containers:
                      - name: backup
                        image: busybox
                        command: [sh, /scripts/run.sh]
                        envFrom: [{secretRef: {name: backup-creds}}]
                        volumeMounts:
                        - {name: script, mountPath: /scripts}
                        - {name: data, mountPath: /data}
                      volumes:
                      - {name: script, configMap: {name: backup-script}}
                      - {name: data, persistentVolumeClaim: {claimName: backup-data}}
            """;

    private static MiniCluster cluster;
    private static CliRunner cli;
    private static RealKubectl kubectl;
    private static SharedInformerFactory informers;
    private static LocalPathProvisioner provisioner;
    private static Path volumeDir;

    @BeforeAll
    static void start() throws Exception {
        cluster = new MiniCluster();
        cli = new CliRunner(cluster.api.url());
        kubectl = new RealKubectl(cluster.api.url());
        volumeDir = Files.createTempDirectory("volumes");
        informers = new SharedInformerFactory(cluster.client, Clock.system());
        provisioner = new LocalPathProvisioner(
                informers.informerFor(PersistentVolumeClaim.class),
                informers.informerFor(PersistentVolume.class),
                cluster.client,
                Clock.system(),
                volumeDir,
                1);
        informers.start();
        assertThat(informers.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
        provisioner.startWorkers();
    }

    @AfterAll
    static void stop() throws Exception {
        if (provisioner != null) {
            provisioner.stop(Duration.ofSeconds(5));
            informers.shutdown();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theBackupBundleAppliesEveryObjectAndTheClaimIsBoundToADirectory() throws Exception {
        Assumptions.assumeTrue(RealKubectl.installed(), "kubectl is not installed");
        RealKubectl.Result applied = kubectl.runWithStdin(BUNDLE, "apply", "-f", "-");
        assertThat(applied.code()).as(applied.err()).isZero();
        assertThat(applied.out().lines().toList())
                .containsExactly(
                        "namespace/backup created",
                        "serviceaccount/backup created",
                        "role.rbac.authorization.k8s.io/backup created",
                        "rolebinding.rbac.authorization.k8s.io/backup created",
                        "configmap/backup-script created",
                        "secret/backup-creds created",
                        "persistentvolumeclaim/backup-data created",
                        "cronjob.batch/backup created");
        RealKubectl.Result again = kubectl.runWithStdin(BUNDLE, "apply", "-f", "-");
        assertThat(again.code()).as(again.err()).isZero();
        // as against a real cluster: the live Secret never holds stringData, so kubectl patches it again
        assertThat(again.out().lines().filter(l -> !l.endsWith(" unchanged")))
                .containsExactly("secret/backup-creds configured");
        assertThat(cluster.client
                        .resource(io.kplane.api.core.Secret.class)
                        .inNamespace("backup")
                        .get("backup-creds")
                        .stringData())
                .isNull();

        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.client
                .resource(PersistentVolumeClaim.class)
                .inNamespace("backup")
                .get("backup-data")
                .status()
                .phase()
                .equals("Bound"));
        PersistentVolumeClaim claim = cluster.client
                .resource(PersistentVolumeClaim.class)
                .inNamespace("backup")
                .get("backup-data");
        assertThat(claim.status().capacity()).containsEntry("storage", "1Gi");
        PersistentVolume volume =
                cluster.client.resource(PersistentVolume.class).get(claim.spec().volumeName());
        Path dir = Path.of(volume.spec().hostPath().path());
        assertThat(dir).isEqualTo(volumeDir.toAbsolutePath().resolve("pvc-" + claim.uid() + "_backup_backup-data"));
        assertThat(dir).isDirectory();
        Files.writeString(dir.resolve("result.txt"), "kept while the claim lives");

        RealKubectl.Result get = kubectl.run("get", "cm,secret,sa,pvc,role,rolebinding", "-n", "backup");
        assertThat(get.code()).as(get.err()).isZero();
        CliRunner.Result liteGet = cli.run("get", "cm,secret,sa,pvc,role,rolebinding", "-n", "backup");
        assertThat(liteGet.code()).as(liteGet.err()).isZero();
        assertThat(headers(liteGet.out())).isEqualTo(headers(get.out()));
        assertThat(names(liteGet.out())).isEqualTo(names(get.out()));
        assertThat(get.out()).containsPattern("persistentvolumeclaim/backup-data\\s+Bound\\s+pvc-\\S+\\s+1Gi\\s+RWO");
        assertThat(get.out()).containsPattern("secret/backup-creds\\s+Opaque\\s+2\\s");
        assertThat(get.out()).containsPattern("rolebinding.rbac.authorization.k8s.io/backup\\s+Role/backup\\s");
        RealKubectl.Result pv = kubectl.run("get", "pv");
        assertThat(pv.out().lines().findFirst().orElse(""))
                .matches("NAME\\s+CAPACITY\\s+ACCESS MODES\\s+RECLAIM POLICY"
                        + "\\s+STATUS\\s+CLAIM\\s+STORAGECLASS\\s+VOLUMEATTRIBUTESCLASS\\s+REASON\\s+AGE");
        assertThat(headers(cli.run("get", "pv").out())).isEqualTo(headers(pv.out()));

        for (String[] obj : List.of(
                new String[] {"configmap", "backup-script"},
                new String[] {"secret", "backup-creds"},
                new String[] {"serviceaccount", "backup"},
                new String[] {"pvc", "backup-data"},
                new String[] {"role", "backup"},
                new String[] {"rolebinding", "backup"},
                new String[] {"pv", volume.name()})) {
            compareDescribe(obj[0], obj[1]);
        }
        assertThat(cli.run("describe", "role", "backup", "-n", "backup").out())
                .contains("kplane stores RBAC objects but does not enforce them");

        assertThat(kubectl.run("delete", "pvc", "backup-data", "-n", "backup").code())
                .isZero();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !Files.exists(dir)
                        && cluster.client
                                .resource(PersistentVolume.class)
                                .find(volume.name())
                                .isEmpty());
    }

    @Test
    void aFileWithAnUnservedKindAppliesTheRestLikeARealCluster() {
        Assumptions.assumeTrue(RealKubectl.installed(), "kubectl is not installed");
        String file =
                """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: mixed}
                spec:
                  template:
                    spec:
                      restartPolicy: Never
                      containers: [{name: c, image: busybox, command: ["true"]}]
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers: [{name: web, image: nginx}]
                """;
        RealKubectl.Result r = kubectl.runWithStdin(file, "apply", "-f", "-");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEqualTo("job.batch/mixed created\n");
        assertThat(r.err()).contains("no matches for kind \"Deployment\" in version \"apps/v1\"");
        assertThat(r.err()).doesNotContain("failed to download openapi");
        assertThat(cluster.client.jobs().inNamespace("default").find("mixed")).isPresent();

        RealKubectl.Result explain = kubectl.run("explain", "pvc.spec.accessModes");
        assertThat(explain.code()).as(explain.err()).isZero();
        assertThat(explain.out()).contains("KIND:       PersistentVolumeClaim").contains("accessModes");
    }

    @Test
    void aJobWhosePodsNameAMissingServiceAccountShowsFailedCreate() {
        CliRunner.Result r = cli.runWithStdin(
                """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: nosa}
                spec:
                  backoffLimit: 0
                  template:
                    spec:
                      serviceAccountName: missing
                      restartPolicy: Never
                      containers: [{name: c, image: busybox, command: ["true"]}]
                """,
                "apply",
                "-f",
                "-");
        assertThat(r.code()).as(r.err()).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> cli.run("describe", "job", "nosa")
                .out()
                .contains("Error creating: pods \"nosa-\" is forbidden: error looking up service account "
                        + "default/missing: serviceaccount \"missing\" not found"));
        assertThat(cli.run("describe", "job", "nosa").out()).containsPattern("Warning\\s+FailedCreate");
    }

    private static void compareDescribe(String type, String name) {
        RealKubectl.Result real = kubectl.run("describe", type, name, "-n", "backup");
        assertThat(real.code()).as(real.err()).isZero();
        CliRunner.Result lite = cli.run("describe", type, name, "-n", "backup");
        assertThat(lite.code()).as(lite.err()).isZero();
        List<String> liteSkeleton = KubectlParityTest.skeleton(lite.out()).stream()
                .filter(l -> !l.equals("Note:"))
                .toList();
        List<String> realSkeleton = KubectlParityTest.skeleton(real.out());
        if (type.equals("secret") || type.equals("cm") || type.equals("configmap")) {
            // kubectl prints a Secret's or ConfigMap's keys in Go map order, which differs from run to
            // run (kubectl-lite sorts them): compare those sections as sets of lines
            liteSkeleton = liteSkeleton.stream().sorted().toList();
            realSkeleton = realSkeleton.stream().sorted().toList();
        }
        assertThat(liteSkeleton)
                .as("describe %s %s\n--- kubectl:\n%s\n--- kubectl-lite:\n%s", type, name, real.out(), lite.out())
                .isEqualTo(realSkeleton);
    }

    private static final Pattern SPACES = Pattern.compile("\\s{2,}");

    /** The header line of each table kubectl printed (one per kind). */
    private static List<String> headers(String out) {
        return out.lines()
                .filter(l -> l.startsWith("NAME "))
                .map(l -> SPACES.matcher(l.strip()).replaceAll("|"))
                .toList();
    }

    private static List<String> names(String out) {
        return out.lines()
                .filter(l -> !l.startsWith("NAME ") && !l.isBlank())
                .map(l -> l.split("\\s+")[0])
                .toList();
    }
}
