package io.kplane.controllers.testing;

import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the controller tests that run against a real API server on embedded PostgreSQL: one
 * server per test class and a client for it. The controllers themselves are started per test.
 */
public abstract class ApiServerTest {
    protected static TestApiServer api;
    protected static KubeClient client;

    @BeforeAll
    static void startApiServer() {
        api = TestApiServer.start();
        client = KubeClient.forServer(api.url());
    }

    @AfterAll
    static void stopApiServer() {
        api.close();
    }

    /** {@code prefix} plus a random suffix, so tests sharing a server never collide on names. */
    public static String uniqueName(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 6);
    }
}
