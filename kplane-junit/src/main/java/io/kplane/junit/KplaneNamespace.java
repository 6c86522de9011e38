package io.kplane.junit;

import java.nio.file.Path;

/**
 * The namespace created for one test (deleted after it), and a kubeconfig file whose current context
 * uses it as the default namespace: hand it to {@code kubectl}, a build tool or any client.
 */
public record KplaneNamespace(String name, Path kubeconfig) {}
