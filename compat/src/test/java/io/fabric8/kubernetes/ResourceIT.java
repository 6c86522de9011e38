/*
 * Copyright (C) 2015 Red Hat, Inc.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *         http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
// Copied from fabric8io/kubernetes-client kubernetes-itests at ceb92181 (7.9 line), Apache-2.0; see compat/README.md.
// kplane: left out the tests on Services and Deployments (kinds kplane does not serve).
package io.fabric8.kubernetes;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.junit.jupiter.api.LoadKubernetesManifests;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Collections;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@LoadKubernetesManifests("/resource-it.yml")
class ResourceIT {

    KubernetesClient client;

    @Test
    void get() {
        assertNotNull(client.pods().withName("resource-pod-get").get());
    }

    @Test
    void list() {
        Pod listPod1 = new PodBuilder()
                .withNewMetadata()
                .withName("resource-pod-list-pod3")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("nginx")
                .withImage("nginx")
                .endContainer()
                .endSpec()
                .build();
        client.resourceList(new PodListBuilder().withItems(listPod1).build()).create();

        assertNotNull(client.pods().withName("resource-pod-list-pod3"));

        boolean bDeleted =
                client.resourceList(new PodListBuilder().withItems(listPod1).build())
                                .withGracePeriod(0L)
                                .delete()
                                .size()
                        == 1;
        assertTrue(bDeleted);
    }

    @Test
    void delete() {
        Pod pod1 = client.pods()
                .withName("resource-pod-delete")
                .waitUntilCondition(Objects::nonNull, 30, TimeUnit.SECONDS);
        assertTrue(client.resource(pod1).withGracePeriod(0L).delete().size() == 1);
    }

    private static Deployment initDeployment(String name) {
        return new DeploymentBuilder()
                .withMetadata(new ObjectMetaBuilder().withName(name).build())
                .withSpec(new DeploymentSpecBuilder()
                        .withReplicas(1)
                        .withNewSelector()
                        .withMatchLabels(Collections.singletonMap("run", name))
                        .endSelector()
                        .withTemplate(new PodTemplateSpecBuilder()
                                .withNewMetadata()
                                .withLabels(Collections.singletonMap("run", name))
                                .endMetadata()
                                .withNewSpec()
                                .withTerminationGracePeriodSeconds(1L)
                                .addToContainers(new ContainerBuilder()
                                        .withImage("busybox")
                                        .withCommand("sh", "-c", "sleep 60")
                                        .withName(name)
                                        .addNewPort()
                                        .withContainerPort(80)
                                        .endPort()
                                        .build())
                                .endSpec()
                                .build())
                        .build())
                .build();
    }
}
