package io.kplane.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResourceTypesTest {

    @ParameterizedTest
    @CsvSource({
        "jobs, jobs.batch",
        "job, jobs.batch",
        "Job, jobs.batch",
        "JOBS, jobs.batch",
        "jobs.batch, jobs.batch",
        "cj, cronjobs.batch",
        "CronJob, cronjobs.batch",
        "cronjob.batch, cronjobs.batch",
        "po, pods",
        "pod, pods",
        "ns, namespaces",
        "no, nodes",
        "ev, events",
        "leases, leases.coordination.k8s.io",
        "lease, leases.coordination.k8s.io",
    })
    void lookupResolvesWhatUsersType(String input, String storageName) {
        assertThat(ResourceTypes.lookup(input))
                .get()
                .extracting(ResourceType::storageName)
                .isEqualTo(storageName);
    }

    @Test
    void unknownNamesAreEmpty() {
        assertThat(ResourceTypes.lookup("deployments")).isEmpty();
        assertThat(ResourceTypes.byResource("batch", "pods")).isEmpty();
    }

    @Test
    void derivedNames() {
        assertThat(ResourceTypes.JOBS.apiVersion()).isEqualTo("batch/v1");
        assertThat(ResourceTypes.PODS.apiVersion()).isEqualTo("v1");
        assertThat(ResourceTypes.LEASES.groupVersionPath()).isEqualTo("/apis/coordination.k8s.io/v1");
        assertThat(ResourceTypes.inCategory("all"))
                .containsExactly(ResourceTypes.PODS, ResourceTypes.JOBS, ResourceTypes.CRONJOBS);
        assertThat(ResourceTypes.groupVersions())
                .containsExactly(
                        "v1",
                        "coordination.k8s.io/v1",
                        "batch/v1",
                        "rbac.authorization.k8s.io/v1",
                        "kplane.io/v1",
                        "lens.kplane.io/v1");
        assertThat(ResourceTypes.byApiVersionAndKind("batch/v1", "CronJob")).contains(ResourceTypes.CRONJOBS);
    }
}
