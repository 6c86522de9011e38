package io.kplane.controllers.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.controllers.job.JobControllerMain;
import io.kplane.controllers.testing.ControllerJvm;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A real controller process started with no API server to reach: like kube-controller-manager it
 * opens its health port at once (nothing before it waits for the API server), stays up as a standby,
 * and {@code /healthz?verbose} says why it does not lead.
 */
class StandbyHealthTest {
    private static final Pattern HEALTH_PORT = Pattern.compile("starting: .* health port (\\d+)");

    @Test
    void aControllerWithoutApiServerServesHealthAndSaysWhyItDoesNotLead() throws Exception {
        int nobody;
        try (ServerSocket s = new ServerSocket(0)) {
            nobody = s.getLocalPort(); // closed again: connections to it are refused
        }
        try (ControllerJvm controller = ControllerJvm.start(
                List.of("-Xmx128m"),
                JobControllerMain.class,
                "--server",
                "http://127.0.0.1:" + nobody,
                "--health-port",
                "0",
                "--retry-period",
                "200ms")) {
            Process process = controller.process();
            List<String> lines = controller.lines();
            int port = await("the health port logged, with no API server (output: " + lines + ")")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> healthPort(lines), p -> p > 0);
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest verbose = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz?verbose"))
                    .timeout(Duration.ofSeconds(20))
                    .build();
            HttpResponse<String> health = await("a standby reason naming the lease")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> http.send(verbose, HttpResponse.BodyHandlers.ofString()), r -> r.body()
                            .contains("not leading: cannot read lease "));
            assertThat(health.statusCode()).as("a standby is healthy").isEqualTo(200);
            assertThat(health.body())
                    .containsPattern("\\[\\+]informers not started \\(not leading: cannot read lease"
                            + " [a-z-]+/job-controller: .+\\)");
            assertThat(process.isAlive()).isTrue();

            process.toHandle().destroy(); // SIGTERM: a standby exits 0
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as("exit code; output: %s", lines).isZero();
        }
    }

    private static int healthPort(List<String> lines) {
        for (String line : lines) {
            Matcher m = HEALTH_PORT.matcher(line);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
        }
        return 0;
    }
}
