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
// kplane: left out the tests on ReplicaSets/Deployments (kinds kplane does not serve); CommonThreadPool (newer than the
// 7.9.0 client) replaced by the common pool.
package io.fabric8.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.junit.jupiter.api.LoadKubernetesManifests;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

@LoadKubernetesManifests("/delete-it.yml")
class DeleteIT {

    KubernetesClient client;

    @Test
    void testDeleteNonExistentResource() {
        // Given
        String podName = "i-dont-exist";
        // When
        boolean isDeleted = client.pods().withName(podName).delete().size() == 1;
        // Then
        assertFalse(isDeleted);
    }

    @Test
    void testDeleteNonExistentResourceBlocking() {
        // Given
        String podName = "i-dont-exist";
        // When
        long start = System.currentTimeMillis();
        client.pods().withName(podName).withTimeout(10, TimeUnit.MINUTES).delete();
        // Then it shouldn't block
        assertTrue(System.currentTimeMillis() - start < TimeUnit.MILLISECONDS.convert(1, TimeUnit.MINUTES));
    }

    @Test
    void testBlockingDeleteExistentResource() throws Exception {
        // Given
        String name = "deleteit-existent";
        // When
        Resource<Secret> op = client.secrets().withName(name);
        CompletableFuture<List<StatusDetails>> future;
        try {
            op.edit(s -> {
                s.addFinalizer("fabric8.com/blocking");
                return s;
            });
            future = CompletableFuture.supplyAsync(
                    () -> op.withTimeout(60, TimeUnit.SECONDS).delete());

            try {
                future.get(10, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                // expected - we're waiting for the finalizer
            }
            assertNotNull(op.get().getMetadata().getDeletionTimestamp());
        } finally {
            op.edit(s -> {
                s.getMetadata().setFinalizers(null);
                return s;
            });
        }

        assertEquals(1, future.get(60, TimeUnit.SECONDS).size());
    }

    @Test
    void testDeleteWithGracePeriod() {
        // Given
        String name = "deleteit-existent-graceperiod";
        // When
        boolean isDeleted =
                client.secrets().withName(name).withGracePeriod(0).delete().size() == 1;
        // Then
        assertTrue(isDeleted);
        client.secrets().withName(name).waitUntilCondition(Objects::isNull, 60, TimeUnit.SECONDS);
    }
}
