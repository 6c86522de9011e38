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
// kplane: left out exec, attach, upload, copy, file read and port-forward (pods/exec, pods/attach, pods/portforward are
// covered by Fabric8ExecIT where they are served) and uploadFile.
package io.fabric8.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.fabric8.junit.jupiter.api.LoadKubernetesManifests;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ContainerResource;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.utils.Utils;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

@LoadKubernetesManifests("/pod-it.yml")
class PodIT {

    private static final int POD_READY_WAIT_IN_MILLIS = 60000;
    private static final Logger logger = LoggerFactory.getLogger(PodIT.class);

    private ExecutorService executorService;

    @TempDir
    Path tempDir;

    KubernetesClient client;

    Namespace namespace;

    @BeforeEach
    void prepare() {
        executorService = Executors.newSingleThreadExecutor(Utils.daemonThreadFactory(this));
    }

    @AfterEach
    void tearDown() {
        executorService.shutdownNow();
    }

    @Test
    void load() {
        Pod aPod = client.pods()
                .load(getClass().getResourceAsStream("/test-pod.yml"))
                .item();
        assertThat(aPod).isNotNull().extracting("metadata.name").isEqualTo("nginx");
    }

    @Test
    void get() {
        Pod pod1 = client.pods().withName("pod-standard").get();
        assertNotNull(pod1);
    }

    @Test
    void list() {
        PodList podList = client.pods().list();
        assertThat(podList).isNotNull().extracting(PodList::getItems).asList().hasSizeGreaterThanOrEqualTo(1);
    }

    @Test
    void update() {
        Pod pod1 = client.pods().withName("pod-standard").edit(p -> new PodBuilder(p)
                .editMetadata()
                .withResourceVersion(null)
                .addToLabels("foo", "bar")
                .endMetadata()
                .build());
        assertEquals("bar", pod1.getMetadata().getLabels().get("foo"));
    }

    @Test
    void readinessGate() {
        Map<String, Boolean> readiness = new HashMap<>();
        readiness.put("test", true);
        Pod pod1 = client.pods().withName("pod-standard").patchReadinessGateStatus(readiness);
        assertEquals(
                "True",
                pod1.getStatus().getConditions().stream()
                        .filter(pc -> pc.getType().equals("test"))
                        .findFirst()
                        .orElseThrow(() -> new NoSuchElementException())
                        .getStatus());
    }

    @Test
    void delete() {
        assertEquals(1, client.pods().withName("pod-delete").delete().size());
    }

    @Test
    void log() {
        String log = client.pods()
                .withName("pod-standard")
                .withReadyWaitTimeout(POD_READY_WAIT_IN_MILLIS)
                .getLog();
        assertNotNull(log);
    }

    @Test
    void logWatch() throws IOException {
        try (ByteArrayOutputStream baos = new ByteArrayOutputStream();
                LogWatch ignore = client.pods()
                        .withName("pod-standard")
                        .withReadyWaitTimeout(POD_READY_WAIT_IN_MILLIS)
                        .watchLog(baos)) {
            await().atMost(15, TimeUnit.SECONDS)
                    .until(() -> baos.toString(Charset.defaultCharset().name()).startsWith("1\n"));
        }
    }

    @Test
    void logWatchLongerThanDefaultTimeout() throws IOException {
        final long startTime = System.currentTimeMillis();
        try (ByteArrayOutputStream baos = new ByteArrayOutputStream();
                LogWatch ignore = client.pods()
                        .withName("pod-standard")
                        .withReadyWaitTimeout(POD_READY_WAIT_IN_MILLIS)
                        .watchLog(baos)) {
            await().atMost(60, TimeUnit.SECONDS)
                    .until(() -> baos.toString(Charset.defaultCharset().name()).startsWith("1\n2\n3\n"));
            assertThat(System.currentTimeMillis() - startTime).isGreaterThanOrEqualTo(10000);
        }
    }

    @Test
    void logWatchWithoutNewLogsLongerThanDefaultTimeout() throws IOException {
        final long startTime = System.currentTimeMillis();
        final ContainerResource container =
                client.pods().withName("nginx").withReadyWaitTimeout(POD_READY_WAIT_IN_MILLIS);
        try (ByteArrayOutputStream baos = new ByteArrayOutputStream();
                LogWatch ignore = container.watchLog(baos)) {
            final String initialLog = container.getLog();
            await().pollDelay(Duration.ofSeconds(15))
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> initialLog.equals(baos.toString(StandardCharsets.UTF_8.name())));
            assertThat(System.currentTimeMillis() - startTime).isGreaterThanOrEqualTo(10000);
        }
    }

    void retryUpload(BooleanSupplier operation) {
        await().atMost(60, TimeUnit.SECONDS).until(operation::getAsBoolean);
    }

    private String checkFile(PodResource podResource, Path msg, String remoteFile) {
        try {
            ByteArrayOutputStream baos = new ByteArrayOutputStream();
            podResource
                    .writingOutput(baos)
                    .withReadyWaitTimeout(POD_READY_WAIT_IN_MILLIS)
                    .exec("sh", "-c", String.format("ls -al %s", remoteFile))
                    .exitCode()
                    .get();
            String ls = new String(baos.toByteArray());
            if (msg != null) {
                byte[] bytes = Files.readAllBytes(msg);
                return String.format("%s local bytes %s", ls, bytes.length);
            }
            return ls;
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    @Test
    void listFromServer() {
        client.pods().withName("pod-standard").waitUntilReady(POD_READY_WAIT_IN_MILLIS, TimeUnit.SECONDS);
        final Pod pod1 = client.pods().withName("pod-standard").get();
        List<HasMetadata> resources = client.resourceList(pod1).get();

        assertNotNull(resources);
        assertEquals(1, resources.size());
        assertNotNull(resources.get(0));

        HasMetadata fromServerPod = resources.get(0);

        assertEquals(pod1.getKind(), fromServerPod.getKind());
        assertEquals(
                namespace.getMetadata().getName(), fromServerPod.getMetadata().getNamespace());
        assertEquals(pod1.getMetadata().getName(), fromServerPod.getMetadata().getName());
    }
}
