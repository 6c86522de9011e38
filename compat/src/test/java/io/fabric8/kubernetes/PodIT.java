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
// kplane: left out (compat/README.md says why, each checkable):
// - logWatchWithoutNewLogsLongerThanDefaultTimeout, portForward: they need the nginx:1.14.2 image's own entrypoint
//   (the pod "nginx" has no command); the process runtime runs a container's command only, so that pod waits in
//   CreateContainerConfigError and never gets ready. portForward then waits POD_READY_WAIT_IN_MILLIS *seconds*
//   (waitUntilReady(60000, SECONDS): 16.7 h); the other one waits out two 60-s ready timeouts and compares two empty
//   logs. Port forwarding is covered by io.kplane.compat.Fabric8PortForwardIT (busybox httpd).
// - logWatchLongerThanDefaultTimeout: asserts >= 10 s from its own start to the log's third line of pod-standard, which
//   prints a line every 5 s from its start; that holds only if the container starts after the test method does. A
//   kplane pod starts within a second of the manifest applied in beforeAll, so the order is the machine's (seen: 9,548
//   ms in one of five runs under load). Log following stays covered by logWatch.
// - readFile, readFileEscapedParams, copyFile: they write /msg or /msg.txt into the container's root and read it
//   back at once. On the process runtime a container without volume mounts shares the host's filesystem, so they
//   would write into the build machine's /; and they start the write with exec() without waiting for it to end
//   (exec returns once the stream is open) before the read's own exec starts, an order neither Kubernetes nor kplane
//   promises. fabric8's read and copy are covered by io.kplane.compat.Fabric8ExecIT, which waits for its writes.
package io.fabric8.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.junit.jupiter.api.LoadKubernetesManifests;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.utils.IOHelpers;
import io.fabric8.kubernetes.client.utils.InputStreamPumper;
import io.fabric8.kubernetes.client.utils.Utils;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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
    void exec() throws Exception {
        final CountDownLatch execLatch = new CountDownLatch(1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        final AtomicBoolean closed = new AtomicBoolean();
        final AtomicBoolean failed = new AtomicBoolean();
        final CompletableFuture<Status> exitStatus = new CompletableFuture<>();
        int[] exitCode = new int[] {Integer.MAX_VALUE};
        client.pods()
                .withName("pod-standard")
                .writingOutput(out)
                .usingListener(new ExecListener() {
                    @Override
                    public void onOpen() {
                        logger.info("Shell was opened");
                    }

                    @Override
                    public void onFailure(Throwable t, Response failureResponse) {
                        logger.info("Shell barfed");
                        failed.set(true);
                        execLatch.countDown();
                    }

                    @Override
                    public void onClose(int i, String s) {
                        logger.info("Shell closed");
                        closed.set(true);
                        execLatch.countDown();
                    }

                    @Override
                    public void onExit(int code, Status status) {
                        exitCode[0] = code;
                        exitStatus.complete(status);
                    }
                })
                .withReadyWaitTimeout(POD_READY_WAIT_IN_MILLIS)
                .exec("sh", "-c", "echo 'hello world!'");
        assertThat(exitStatus.get(5, TimeUnit.SECONDS)).hasFieldOrPropertyWithValue("status", "Success");
        assertTrue(execLatch.await(5, TimeUnit.SECONDS));
        assertEquals(0, exitCode[0]);
        assertTrue(closed.get());
        assertFalse(failed.get());
        assertNotNull(out.toString());
    }

    @Test
    void execExitCode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExecWatch watch = client.pods()
                .withName("pod-standard")
                .writingOutput(out)
                .withReadyWaitTimeout(POD_READY_WAIT_IN_MILLIS)
                .exec("sh", "-c", "echo 'hello world!'");
        assertEquals(0, watch.exitCode().join());
        assertThat(out.toString()).startsWith("hello world!");
    }

    @Test
    void execInteractiveShell() throws Exception {
        ByteArrayOutputStream baos = new ByteArrayOutputStream();
        ExecWatch watch = client.pods()
                .withName("pod-standard")
                .redirectingInput()
                .redirectingOutput()
                .redirectingError()
                .withTTY()
                .withReadyWaitTimeout(POD_READY_WAIT_IN_MILLIS)
                .exec("sh", "-i");

        InputStreamPumper.pump(watch.getOutput(), baos::write, executorService);

        watch.getInput().write("whoami\n".getBytes(StandardCharsets.UTF_8));
        watch.getInput().flush();

        await().atMost(30, TimeUnit.SECONDS)
                .until(() -> new String(baos.toByteArray(), StandardCharsets.UTF_8).contains("root"));

        watch.close();

        // no error is expected
        assertEquals(-1, watch.getError().read());
    }

    @Test
    void attach() throws Exception {
        CountDownLatch latch = new CountDownLatch(1);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        AtomicBoolean closed = new AtomicBoolean();
        AtomicBoolean failed = new AtomicBoolean();

        ExecWatch watch = client.pods()
                .withName("pod-interactive")
                .redirectingInput()
                .redirectingOutput()
                .redirectingError()
                .withTTY()
                .usingListener(new ExecListener() {
                    @Override
                    public void onFailure(Throwable t, Response failureResponse) {
                        failed.set(true);
                        latch.countDown();
                    }

                    @Override
                    public void onClose(int i, String s) {
                        closed.set(true);
                        latch.countDown();
                    }
                })
                .withReadyWaitTimeout(POD_READY_WAIT_IN_MILLIS)
                .attach();

        watch.getInput().write("whoami\n".getBytes(StandardCharsets.UTF_8));
        watch.getInput().flush();

        InputStreamPumper.pump(watch.getOutput(), stdout::write, executorService);

        await().atMost(30, TimeUnit.SECONDS).until(() -> stdout.toString().contains("root"));

        watch.close();

        assertTrue(latch.await(5, TimeUnit.SECONDS));
        assertTrue(closed.get());
        assertFalse(failed.get());

        // make sure we can get log output before the pod terminates
        ByteArrayOutputStream result = new ByteArrayOutputStream();
        LogWatch log =
                client.pods().withName("pod-interactive").tailingLines(10).watchLog(result);
        await().atMost(30, TimeUnit.SECONDS).until(() -> result.size() > 0);
        log.close();
    }

    @ParameterizedTest(name = "upload, with valid file to ''{0}'', should create file with contents")
    @ValueSource(strings = {"/tmp/toBeUploaded", "/tmp/001_special_!@#\\$^&(.mp4", "/tmp/002'special"})
    void uploadFile(String uploadPath) throws IOException {
        // Given
        final Path tempFile =
                Files.write(tempDir.resolve("file.toBeUploaded"), Collections.singletonList("I'm uploaded"));
        final PodResource podResource = client.pods().withName("pod-standard");
        podResource.waitUntilReady(POD_READY_WAIT_IN_MILLIS, TimeUnit.SECONDS);
        // When
        retryUpload(() -> podResource.file(uploadPath).upload(tempFile));

        try (InputStream checkIs = podResource.file(uploadPath).read();
                BufferedReader br = new BufferedReader(new InputStreamReader(checkIs, StandardCharsets.UTF_8))) {
            String result = br.lines().collect(Collectors.joining(System.lineSeparator()));
            assertEquals("I'm uploaded", result, () -> checkFile(podResource, null, uploadPath));
        }
    }

    void retryUpload(BooleanSupplier operation) {
        await().atMost(60, TimeUnit.SECONDS).until(operation::getAsBoolean);
    }

    @Test
    void uploadBinaryStream() throws Exception {
        byte[] bytes = new byte[16385];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        final PodResource podResource = client.pods().withName("pod-standard");
        // When
        retryUpload(() -> podResource.file("/tmp/binstream").upload(new ByteArrayInputStream(bytes)));
        // Then
        try (InputStream checkIs = podResource.file("/tmp/binstream").read(); ) {
            ByteArrayOutputStream baos = new ByteArrayOutputStream();
            InputStreamPumper.transferTo(checkIs, baos::write);
            assertArrayEquals(bytes, baos.toByteArray(), () -> checkFile(podResource, null, "/tmp/binstream"));
        }
    }

    @Test
    void uploadBinaryFile() throws IOException {
        // Given
        byte[] bytes = new byte[16385];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        final Path tempFile = Files.write(tempDir.resolve("file.toBeUploaded"), bytes);
        final PodResource podResource = client.pods().withName("pod-standard");
        // When
        retryUpload(() -> podResource.file("/tmp/binfile").upload(tempFile));
        // Then
        try (InputStream checkIs = podResource.file("/tmp/binfile").read(); ) {
            ByteArrayOutputStream baos = new ByteArrayOutputStream();
            InputStreamPumper.transferTo(checkIs, baos::write);
            assertArrayEquals(bytes, baos.toByteArray(), () -> checkFile(podResource, null, "/tmp/binfile"));
        }
    }

    @Test
    void uploadDir(@TempDir Path toUpload) throws Exception {
        // Given
        final String[] files = new String[] {"1", "2", "a", "b", "c"};
        final Path nestedDir = Files.createDirectory(toUpload.resolve("nested"));
        for (Path path : new Path[] {toUpload, nestedDir}) {
            for (String fileName : files) {
                Path file = path.resolve(fileName);
                Files.write(Files.createFile(file), Arrays.asList("I'm uploaded", fileName));
            }
        }
        // When
        PodResource podResource = client.pods().withName("pod-standard");
        retryUpload(() -> podResource
                .dir("/tmp/upload-dir")
                .withReadyWaitTimeout(POD_READY_WAIT_IN_MILLIS)
                .upload(toUpload));
        // Then
        final List<Path> pathsToCheck = Stream.of(files)
                .map(f -> new Path[] {Paths.get(f), Paths.get("nested").resolve(f)})
                .flatMap(Stream::of)
                .map(p -> Paths.get("tmp").resolve("upload-dir").resolve(p))
                .collect(Collectors.toList());
        for (Path pathToCheck : pathsToCheck) {
            final ByteArrayOutputStream baos = new ByteArrayOutputStream();
            podResource
                    .writingOutput(baos)
                    .exec("sh", "-c", String.format("cat /%s", pathToCheck.toString()))
                    .exitCode()
                    .get();
            assertThat(baos)
                    .extracting(ByteArrayOutputStream::toString)
                    .asString()
                    .startsWith("I'm uploaded" + System.lineSeparator() + pathToCheck.getFileName());
        }
    }

    @Test
    void copyDir() throws IOException {
        final Path tmpDir = Files.createTempDirectory("copyFile");

        PodResource podResource = client.pods().withName("pod-standard");
        podResource.dir("/etc").withReadyWaitTimeout(POD_READY_WAIT_IN_MILLIS).copy(tmpDir);

        Path msg = tmpDir.resolve("etc/hosts");
        assertTrue(Files.exists(msg));
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
    void readFileMissingException() throws IOException {
        PodResource podResource = client.pods().withName("pod-standard");
        try (InputStream is = podResource.file("does not exist").read()) {
            assertThrows(IOException.class, () -> is.read());
        }
    }

    @Test
    void readDirMissingException() throws IOException {
        PodResource podResource = client.pods().withName("pod-standard");
        try (InputStream is = podResource.dir("/nodir").read()) {
            // this is a little odd, but tar sends some data to stdOut
            // before deciding to error out, so we have to do more than a
            // single read - this seems like a usability issue...
            assertThrows(IOException.class, () -> IOHelpers.readFully(is));
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
