package io.kplane.store.testing;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Asks the Docker engine on its unix socket whether images are already present, without pulling.
 * Testcontainers pulls whatever is missing (its Ryuk helper included); on machines that reach no
 * image registry that would be a futile network attempt, so the fixture uses a container only when
 * the images are local, unless {@code -Dkplane.test.pullImages=true} allows pulling.
 */
final class LocalImages {
    private LocalImages() {}

    /** The engine's unix socket from DOCKER_HOST (unix://...) or the default path; null if none. */
    static Path socket() {
        String host = System.getenv("DOCKER_HOST");
        if (host == null || host.isBlank()) {
            Path fallback = Path.of("/var/run/docker.sock");
            return Files.exists(fallback) ? fallback : null;
        }
        return host.startsWith("unix://") ? Path.of(host.substring("unix://".length())) : null;
    }

    static boolean allPresent(Path socket, List<String> images) {
        for (String image : images) {
            if (!present(socket, image)) {
                return false;
            }
        }
        return true;
    }

    /** {@code GET /images/<name>/json}: 200 when the engine has the image locally. */
    static boolean present(Path socket, String image) {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            String request = "GET /images/" + image + "/json HTTP/1.0\r\nHost: docker\r\n\r\n";
            channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer response = ByteBuffer.allocate(64);
            while (response.hasRemaining() && channel.read(response) > 0) {
                // the status line is all we need
            }
            String statusLine = new String(response.array(), 0, response.position(), StandardCharsets.US_ASCII);
            return statusLine.startsWith("HTTP/1.0 200") || statusLine.startsWith("HTTP/1.1 200");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
