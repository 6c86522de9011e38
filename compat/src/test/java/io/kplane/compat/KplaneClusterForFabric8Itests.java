package io.kplane.compat;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The adapter that runs fabric8's own integration tests ({@code io.fabric8.kubernetes.*IT}, copied from
 * their {@code kubernetes-itests}) against kplane. Their JUnit extension
 * ({@code io.fabric8:kubernetes-junit-jupiter}: a namespace per test class, {@code KubernetesClient}
 * fields, {@code @LoadKubernetesManifests}) builds its client with {@code new KubernetesClientBuilder().build()},
 * i.e. fabric8's default configuration, which reads the kubeconfig named by the {@code kubeconfig}
 * system property. This extension starts the stack and points that property at its kubeconfig; it is
 * registered through {@code META-INF/services} (auto-detection, enabled in
 * {@code junit-platform.properties}) from this module's test classes, which come first on the class
 * path, so it runs before fabric8's extensions. It acts as an {@link ExecutionCondition} as well:
 * JUnit evaluates conditions before any {@code beforeAll}, and fabric8's {@code @RequireK8sSupport} /
 * {@code @RequireK8sVersionAtLeast} conditions already build a client.
 */
public final class KplaneClusterForFabric8Itests implements ExecutionCondition, BeforeAllCallback {
    /** fabric8's {@code Config.KUBERNETES_KUBECONFIG_FILE}. */
    static final String KUBECONFIG_PROPERTY = "kubeconfig";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        pointFabric8AtTheStack();
        return ConditionEvaluationResult.enabled("the kplane stack is up");
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        pointFabric8AtTheStack();
    }

    private static void pointFabric8AtTheStack() {
        System.setProperty(
                KUBECONFIG_PROPERTY, KplaneStack.shared().kubeconfig().toString());
    }
}
