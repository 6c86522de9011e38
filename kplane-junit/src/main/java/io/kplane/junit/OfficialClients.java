package io.kplane.junit;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/**
 * The official client's ({@code io.kubernetes:client-java}) {@code ApiClient} for a test, built from
 * the test's kubeconfig with the library's defaults. Only loaded when that library is on the class path.
 */
final class OfficialClients {
    static final String CLIENT_CLASS = "io.kubernetes.client.openapi.ApiClient";

    private OfficialClients() {}

    static ApiClient create(KplaneNamespace namespace) {
        try (Reader reader = Files.newBufferedReader(namespace.kubeconfig())) {
            return create(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ApiClient create(String kubeconfig) {
        return create(new StringReader(kubeconfig));
    }

    private static ApiClient create(Reader kubeconfig) {
        try {
            return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(kubeconfig))
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
