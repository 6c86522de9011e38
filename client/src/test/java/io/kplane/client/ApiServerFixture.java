package io.kplane.client;

import io.kplane.apiserver.testing.TestApiServer;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The client tests' one fixture: a real API server ({@link TestApiServer}, on the embedded PostgreSQL)
 * started before a test class's first test and closed after its last, a {@link KubeClient} for it, and
 * the namespaces the class works in. Register it on a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ApiServerFixture server = ApiServerFixture.withNamespaces("events");
 * ... server.client().pods().inNamespace("events") ...
 * }</pre>
 */
public final class ApiServerFixture implements BeforeAllCallback, AfterAllCallback {
    private final List<String> namespaces;
    private TestApiServer api;
    private KubeClient client;

    private ApiServerFixture(List<String> namespaces) {
        this.namespaces = namespaces;
    }

    /** A fixture that creates {@code namespaces} once the server is up. */
    public static ApiServerFixture withNamespaces(String... namespaces) {
        return new ApiServerFixture(List.of(namespaces));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        api = TestApiServer.start();
        client = KubeClient.forServer(api.url());
        namespaces.forEach(ns -> TestPods.namespace(client, ns));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (api != null) {
            api.close();
        }
    }

    /** A client for the server (plain HTTP, no credentials: the test server admits everyone). */
    public KubeClient client() {
        return requireStarted(client);
    }

    public String url() {
        return requireStarted(api).url();
    }

    public int port() {
        return requireStarted(api).port();
    }

    private static <T> T requireStarted(T value) {
        if (value == null) {
            throw new IllegalStateException("the API server starts before the class's first test (beforeAll)");
        }
        return value;
    }
}
