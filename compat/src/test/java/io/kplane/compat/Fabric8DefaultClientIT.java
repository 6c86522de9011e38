package io.kplane.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * fabric8 kubernetes-client 7.x exactly as a Java developer gets it: default transport (Vert.x), default
 * {@link Config} (watches open as WebSockets first; {@code onlyHttpWatches} stays false). Every call
 * here used to hang on the endless chunked 200 answer to the upgrade.
 */
class Fabric8DefaultClientIT {
    static KubernetesClient client;
    static String ns;

    @BeforeAll
    static void connect() {
        Config config = Fabric8Clients.config();
        assertThat(config.isOnlyHttpWatches()).isFalse();
        client = Fabric8Clients.connect(config);
        ns = Fabric8Clients.createNamespace(client, "f8-");
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.close();
        }
    }

    static Lease lease(String name) {
        return new LeaseBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity("me")
                .endSpec()
                .build();
    }

    @Test
    void watchDeliversEventsOverTheWebSocket() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        // a label selector too: the other tests' leases in this namespace must not be seen
        try (Watch ignored = client.leases()
                .inNamespace(ns)
                .withLabel("test", "watch")
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Lease lease) {
                        seen.add(action + " " + lease.getMetadata().getName());
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                })) {
            Lease w1 = lease("w1");
            w1.getMetadata().setLabels(Map.of("test", "watch"));
            client.leases().inNamespace(ns).resource(lease("w0")).create();
            client.leases().inNamespace(ns).resource(w1).create();
            client.leases().inNamespace(ns).withName("w1").edit(l -> {
                l.getSpec().setHolderIdentity("you");
                return l;
            });
            client.leases().inNamespace(ns).withName("w1").delete();
            await().atMost(Duration.ofSeconds(20)).until(() -> seen.size() >= 3);
            assertThat(seen).containsExactly("ADDED w1", "MODIFIED w1", "DELETED w1");
        }
    }

    @Test
    void informerListsThenFollows() {
        client.leases().inNamespace(ns).resource(lease("i0")).create();
        List<String> seen = new CopyOnWriteArrayList<>();
        SharedIndexInformer<Lease> informer = client.leases().inNamespace(ns).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Lease obj) {
                seen.add("add " + obj.getMetadata().getName());
            }

            @Override
            public void onUpdate(Lease oldObj, Lease newObj) {
                if (!oldObj.getMetadata()
                        .getResourceVersion()
                        .equals(newObj.getMetadata().getResourceVersion())) {
                    seen.add("update " + newObj.getMetadata().getName());
                }
            }

            @Override
            public void onDelete(Lease obj, boolean deletedFinalStateUnknown) {
                seen.add("delete " + obj.getMetadata().getName());
            }
        });
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> seen.contains("add i0"));
            client.leases().inNamespace(ns).resource(lease("i1")).create();
            client.leases().inNamespace(ns).withName("i0").edit(l -> {
                l.getSpec().setHolderIdentity("other");
                return l;
            });
            client.leases().inNamespace(ns).withName("i1").delete();
            await().atMost(Duration.ofSeconds(20)).until(() -> seen.contains("delete i1"));
            assertThat(seen).containsSubsequence("add i0", "add i1", "delete i1");
            assertThat(seen).contains("update i0");
            assertThat(informer.getIndexer().list())
                    .extracting(l -> l.getMetadata().getName())
                    .contains("i0");
        } finally {
            informer.close();
        }
    }

    @Test
    void waitUntilConditionSeesALaterChange() throws Exception {
        client.leases().inNamespace(ns).resource(lease("c0")).create();
        CompletableFuture<Lease> waited = CompletableFuture.supplyAsync(() -> client.leases()
                .inNamespace(ns)
                .withName("c0")
                .waitUntilCondition(
                        l -> l != null && "later".equals(l.getSpec().getHolderIdentity()), 30, TimeUnit.SECONDS));
        // the wait is established (list + watch) before the change, or it sees the change in its list
        client.leases().inNamespace(ns).withName("c0").edit(l -> {
            l.getSpec().setHolderIdentity("later");
            return l;
        });
        assertThat(waited.get(40, TimeUnit.SECONDS).getSpec().getHolderIdentity())
                .isEqualTo("later");
    }

    @Test
    void jobRunsToCompletionAndWaitUntilConditionSeesIt() {
        Job job = new JobBuilder()
                .withNewMetadata()
                .withName("done")
                .withNamespace(ns)
                .endMetadata()
                .withNewSpec()
                .withNewTemplate()
                .withNewSpec()
                .withRestartPolicy("Never")
                .addNewContainer()
                .withName("c")
                .withImage("busybox")
                .withCommand("sh", "-c", "echo hi")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
        client.batch().v1().jobs().inNamespace(ns).resource(job).create();
        Job done = client.batch()
                .v1()
                .jobs()
                .inNamespace(ns)
                .withName("done")
                .waitUntilCondition(
                        j -> j != null
                                && j.getStatus() != null
                                && j.getStatus().getConditions() != null
                                && j.getStatus().getConditions().stream()
                                        .anyMatch(c -> c.getType().equals("Complete")
                                                && c.getStatus().equals("True")),
                        60,
                        TimeUnit.SECONDS);
        assertThat(done.getStatus().getSucceeded()).isEqualTo(1);
    }

    @Test
    void blockingDeleteWaitsUntilTheKubeletHasStoppedThePod() {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName("sleeper")
                .withNamespace(ns)
                .withLabels(Map.of("app", "sleeper"))
                .endMetadata()
                .withNewSpec()
                .withTerminationGracePeriodSeconds(5L)
                .addNewContainer()
                .withName("c")
                .withImage("busybox")
                .withCommand("sleep", "3600")
                .endContainer()
                .endSpec()
                .build();
        client.pods().inNamespace(ns).resource(pod).create();
        client.pods().inNamespace(ns).withName("sleeper").waitUntilReady(60, TimeUnit.SECONDS);
        // blocking delete: returns once the DELETED event arrived over the watch
        client.pods()
                .inNamespace(ns)
                .withName("sleeper")
                .withTimeout(60, TimeUnit.SECONDS)
                .delete();
        assertThat(client.pods().inNamespace(ns).withName("sleeper").get()).isNull();
    }
}
