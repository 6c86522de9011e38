package io.kplane.launcher;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Asks a component whether it is healthy: its /healthz answers 200, or (PostgreSQL) its port accepts. */
final class HealthProbe {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private HealthProbe() {}

    static boolean healthy(ComponentSpec spec) {
        if (spec.healthPath() == null) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", spec.healthPort()), 1000);
                return true;
            } catch (IOException e) {
                return false;
            }
        }
        try {
            HttpResponse<Void> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(spec.healthUrl()))
                            .timeout(Duration.ofSeconds(2))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
