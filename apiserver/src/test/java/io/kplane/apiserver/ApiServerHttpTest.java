package io.kplane.apiserver;

import io.kplane.apiserver.testing.TestApiServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the HTTP-level tests: one API server on embedded PostgreSQL per test class, reached through
 * {@link Http}. A subclass that needs more set-up adds its own {@code @BeforeAll} (under another
 * name), which JUnit runs after this one.
 */
abstract class ApiServerHttpTest {
    static TestApiServer api;
    static Http http;

    @BeforeAll
    static void startApiServer() {
        api = TestApiServer.start();
        http = new Http(api.url());
    }

    @AfterAll
    static void stopApiServer() {
        api.close();
    }
}
