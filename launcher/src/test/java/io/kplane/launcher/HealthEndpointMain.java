package io.kplane.launcher;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** A stand-in component for the supervisor's tests: a process that serves {@code /healthz} 200 on the port given. */
public final class HealthEndpointMain {
    private HealthEndpointMain() {}

    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0])), 16);
        server.createContext("/healthz", exchange -> {
            byte[] ok = "ok".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, ok.length);
            exchange.getResponseBody().write(ok);
            exchange.close();
        });
        server.start();
    }
}
