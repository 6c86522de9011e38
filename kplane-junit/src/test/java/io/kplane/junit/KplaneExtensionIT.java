package io.kplane.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** What {@link KplaneTest} hands a test, against the real stack it starts. */
@KplaneTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KplaneExtensionIT {
    private static String previousNamespace;

    KubernetesClient client; // set by the extension, like fabric8's own test extension does

    @Test
    @Order(1)
    void everyClientUsesTheTestsNamespace(KplaneNamespace namespace, KubernetesClient fabric8, ApiClient official)
            throws Exception {
        assertThat(namespace.name()).startsWith("kt-every-client-uses-the-tests-namespace-");
        assertThat(Files.readString(namespace.kubeconfig())).contains("\"namespace\" : \"" + namespace.name() + "\"");
        assertThat(fabric8).isSameAs(client);
        assertThat(fabric8.getNamespace()).isEqualTo(namespace.name());
        assertThat(fabric8.namespaces().withName(namespace.name()).get()).isNotNull();

        fabric8.configMaps()
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("settings")
                        .endMetadata()
                        .addToData("k", "v")
                        .build())
                .create();
        V1ConfigMap read = new CoreV1Api(official)
                .readNamespacedConfigMap("settings", namespace.name())
                .execute();
        assertThat(read.getData()).containsEntry("k", "v");
        previousNamespace = namespace.name();
    }

    @Test
    @Order(2)
    void theNextTestHasANewNamespaceAndThePreviousOneIsGone(KplaneNamespace namespace, KplaneCluster cluster) {
        assertThat(previousNamespace).isNotNull();
        assertThat(namespace.name()).isNotEqualTo(previousNamespace);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> cluster.http().get("/api/v1/namespaces/" + previousNamespace) == null);
        assertThat(cluster.http().get("/api/v1/namespaces/" + previousNamespace + "/configmaps/settings"))
                .isNull();
    }

    @Test
    @Order(3)
    void theClockFreezesAndAdvances(ClusterClock clock) {
        Instant frozen = Instant.parse("2030-01-01T00:00:00Z");
        clock.freezeAt(frozen);
        assertThat(clock.now()).isEqualTo(frozen);
        assertThat(clock.clock().at("/status/mode").asText()).isEqualTo("Frozen");
        clock.advance(Duration.ofHours(2));
        assertThat(clock.now()).isEqualTo(frozen.plus(Duration.ofHours(2)));
        Instant set = Instant.parse("2031-06-01T12:00:00Z");
        clock.set(set);
        assertThat(clock.clock().at("/status/mode").asText()).isEqualTo("Offset");
        assertThat(Duration.between(set, clock.now()).abs()).isLessThan(Duration.ofSeconds(5));
        clock.rate(60);
        assertThat(clock.clock().at("/status/rate").asLong()).isEqualTo(60);
        assertThat(clock.now()).isAfterOrEqualTo(frozen.plus(Duration.ofHours(2)));
    }

    @Test
    @Order(4)
    void aTestThatMovedTheClockGivesItBackInRealTime(KplaneCluster cluster) {
        assertThat(cluster.clock().clock().at("/status/mode").asText()).isEqualTo("Real");
        assertThat(Duration.between(cluster.clock().now(), Instant.now()).abs()).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    @Order(5)
    void theStackIsEveryComponentInItsOwnProcess(KplaneCluster cluster) {
        assertThat(cluster.componentPort("job-controller")).isPresent();
        assertThat(cluster.componentPort("kubelet-sim-1")).isPresent();
        assertThat(cluster.residentMemoryMiB()).isGreaterThan(100);
        assertThat(cluster.startDuration()).isPositive();
    }
}
