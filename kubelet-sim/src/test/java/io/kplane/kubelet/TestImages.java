package io.kplane.kubelet;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.CreateContainerResponse;
import com.github.dockerjava.core.command.WaitContainerResultCallback;
import io.kplane.client.time.Clock;
import io.kplane.kubelet.runtime.DockerRuntime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Finds a Docker Engine API endpoint and a busybox image that really runs {@code sh}, for the docker
 * runtime tests. If the engine's {@code busybox} does not run (an image built from a broken rootfs), a
 * working one is imported from the host's static busybox as {@code localhost/kplane-busybox:latest}.
 */
public final class TestImages {
    private TestImages() {}

    /** The reason the docker tests cannot run, or empty if they can. */
    public static Optional<String> dockerUnavailable() {
        String host = System.getenv("DOCKER_HOST");
        if (host == null || host.isBlank()) {
            return Optional.of("DOCKER_HOST is not set (run shared/tools/container-engine.sh start and export its "
                    + "DOCKER_HOST line)");
        }
        try (DockerRuntime runtime = new DockerRuntime(host, Clock.system())) {
            runtime.ping();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of("no Docker Engine API at " + host + ": " + e.getMessage());
        }
    }

    /** An image name whose {@code sh} runs: {@code busybox} if it works, else a freshly imported one. */
    public static String workingBusybox(DockerClient docker) throws Exception {
        if (runsShell(docker, "busybox")) {
            return "busybox";
        }
        String image = "localhost/kplane-busybox:latest";
        if (!runsShell(docker, image)) {
            importBusybox(image);
        }
        if (!runsShell(docker, image)) {
            throw new IllegalStateException("cannot get a busybox image that runs sh");
        }
        return image;
    }

    private static boolean runsShell(DockerClient docker, String image) {
        try {
            CreateContainerResponse c = docker.createContainerCmd(image)
                    .withEntrypoint("sh", "-c", "true")
                    .withEnv("PATH=/bin")
                    .exec();
            try {
                docker.startContainerCmd(c.getId()).exec();
                return docker.waitContainerCmd(c.getId())
                                .exec(new WaitContainerResultCallback())
                                .awaitStatusCode()
                        == 0;
            } finally {
                docker.removeContainerCmd(c.getId()).withForce(true).exec();
            }
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static void importBusybox(String image) throws Exception {
        Path busybox = Path.of("/bin/busybox");
        if (!Files.isExecutable(busybox)) {
            throw new IllegalStateException("the engine's busybox image does not run and /bin/busybox is missing");
        }
        Path dir = Files.createTempDirectory("kplane-busybox");
        Path bin = Files.createDirectories(dir.resolve("rootfs/bin"));
        Files.createDirectories(dir.resolve("rootfs/tmp"));
        Files.copy(busybox, bin.resolve("busybox"));
        Process list = new ProcessBuilder(busybox.toString(), "--list").start();
        List<String> applets = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines()
                .toList();
        list.waitFor();
        for (String applet : applets) {
            if (!applet.equals("busybox") && !applet.isBlank()) {
                Files.createSymbolicLink(bin.resolve(applet), Path.of("busybox"));
            }
        }
        Path tar = dir.resolve("rootfs.tar");
        new ProcessBuilder("tar", "-C", dir.resolve("rootfs").toString(), "-cf", tar.toString(), ".")
                .inheritIO()
                .start()
                .waitFor();
        // POST /images/create?fromSrc=- with a Content-Length body (docker-java streams it chunked,
        // which Podman's compatible service reads as a truncated tar)
        String host = System.getenv("DOCKER_HOST");
        if (host == null || !host.startsWith("unix://")) {
            throw new IllegalStateException("importing a test image needs a unix-socket DOCKER_HOST");
        }
        int colon = image.lastIndexOf(':');
        Process curl = new ProcessBuilder(
                        "curl",
                        "-sf",
                        "--unix-socket",
                        host.substring("unix://".length()),
                        "-X",
                        "POST",
                        "-H",
                        "Content-Type: application/x-tar",
                        "--data-binary",
                        "@" + tar,
                        "http://engine/images/create?fromSrc=-&repo=" + image.substring(0, colon) + "&tag="
                                + image.substring(colon + 1))
                .redirectErrorStream(true)
                .start();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (curl.waitFor() != 0) {
            throw new IllegalStateException("image import failed: " + out);
        }
    }
}
