package io.kplane.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a real kplane stack: started once per test JVM (the first
 * class that needs it starts it, the JVM's end stops it), each component its own OS process as
 * {@code ./kplane up} runs them, and a fresh namespace for every test, deleted after it.
 *
 * <p>Test methods, constructors and lifecycle methods may declare parameters of these types:
 * {@link KplaneNamespace} (the test's namespace and a kubeconfig defaulting to it), {@link KplaneCluster},
 * {@link ClusterClock}, and — when the library is on the test class path — fabric8's
 * {@code KubernetesClient} and the official client's {@code ApiClient}, both configured for the test's
 * namespace. Non-static fields of type {@code KubernetesClient} are set as well.
 *
 * <p>When a test fails, the namespace's events, pod logs and the controllers' sync records for its
 * Jobs and pods are printed to the test's output.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(KplaneExtension.class)
public @interface KplaneTest {}
