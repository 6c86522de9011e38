package io.kplane.junit;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit 5 side of {@link KplaneTest}: one {@link KplaneCluster} per test JVM, a {@link TestNamespace} per test, parameter
 * and field injection, the {@link FailureReport} when a test fails, and the clock back to real time
 * after a test that was handed it.
 */
public final class KplaneExtension
        implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {
    /** {@code NAME=ARG,...}: extra component arguments for the shared stack, e.g. {@code kubelet-sim=--crashloop-base=1s}. */
    public static final String COMPONENT_ARGS_PROPERTY = "kplane.component-args";

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(KplaneExtension.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final AtomicBoolean FIRST_TEST = new AtomicBoolean();

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IllegalAccessException {
        TestNamespace namespace = namespace(context);
        if (FIRST_TEST.compareAndSet(false, true)) {
            long sinceJvmStart = System.currentTimeMillis()
                    - ManagementFactory.getRuntimeMXBean().getStartTime();
            System.out.printf("kplane: first test starts %.1f s after the test JVM started%n", sinceJvmStart / 1000.0);
        }
        Object instance = context.getRequiredTestInstance();
        for (Class<?> c = instance.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())
                        && field.getType().getName().equals(Fabric8Clients.CLIENT_CLASS)) {
                    field.setAccessible(true);
                    field.set(instance, namespace.fabric8Client());
                }
            }
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        TestNamespace namespace = context.getStore(STORE).get(TestNamespace.class, TestNamespace.class);
        if (namespace == null) {
            return;
        }
        if (context.getExecutionException().isPresent()) {
            String report =
                    new FailureReport(cluster(context)).render(namespace.info().name());
            System.out.print(report);
            context.publishReportEntry("kplane", report);
        }
        if (context.getStore(STORE).get(ClockUsed.class) != null) {
            cluster(context).clock().real();
        }
        namespace.close();
        System.out.printf(
                "kplane: namespace %s created in %d ms, deleted in %d ms%n",
                namespace.info().name(), namespace.createMillis(), namespace.deleteMillis());
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == KplaneCluster.class || type == ClusterClock.class || namespaceBound(type);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == KplaneCluster.class) {
            return cluster(context);
        }
        if (type == ClusterClock.class) {
            if (context.getTestMethod().isPresent()) {
                // the clock is the whole cluster's: a test that moves it gives it back in real time
                context.getStore(STORE).put(ClockUsed.class, new ClockUsed());
            }
            return cluster(context).clock();
        }
        if (context.getTestMethod().isEmpty()) {
            throw new ParameterResolutionException(type.getSimpleName()
                    + " belongs to one test's namespace: declare it "
                    + "on a test, @BeforeEach or @AfterEach method, not on " + parameter.getDeclaringExecutable());
        }
        TestNamespace namespace = namespace(context);
        if (type == KplaneNamespace.class) {
            return namespace.info();
        }
        if (type.getName().equals(Fabric8Clients.CLIENT_CLASS)) {
            return namespace.fabric8Client();
        }
        return namespace.officialClient();
    }

    private static boolean namespaceBound(Class<?> type) {
        return type == KplaneNamespace.class
                || type.getName().equals(Fabric8Clients.CLIENT_CLASS)
                || type.getName().equals(OfficialClients.CLIENT_CLASS);
    }

    /**
     * The stack of this test JVM, started by the first test class that needs it and stopped when the
     * JVM exits. A JVM-wide singleton rather than a value in the root context's store: a test run
     * nested in another (JUnit's engine test kit, an IDE re-run) has its own root context but must not
     * start a second stack.
     */
    static KplaneCluster cluster(ExtensionContext context) {
        return SharedCluster.get();
    }

    private static TestNamespace namespace(ExtensionContext context) {
        KplaneCluster cluster = cluster(context);
        return context.getStore(STORE)
                .getOrComputeIfAbsent(
                        TestNamespace.class,
                        k -> TestNamespace.create(cluster, namespaceName(context)),
                        TestNamespace.class);
    }

    /** {@code kt-<test method>-<5 random>}: recognisable in {@code kubectl get ns}, unique per run. */
    static String namespaceName(ExtensionContext context) {
        String method = context.getTestMethod().map(m -> m.getName()).orElse("test");
        String slug = method.replaceAll("([a-z0-9])([A-Z])", "$1-$2")
                .replaceAll("([A-Z])([A-Z][a-z])", "$1-$2")
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9-]", "-")
                .replaceAll("-+", "-");
        if (slug.length() > 40) {
            slug = slug.substring(0, 40);
        }
        slug = slug.replaceAll("^-|-$", "");
        String alphabet = "bcdfghjklmnpqrstvwxz2456789";
        StringBuilder suffix = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            suffix.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return "kt-" + slug + "-" + suffix;
    }

    /** Marks a test that was handed the clock. */
    private record ClockUsed() {}

    /** The JVM-wide stack. */
    static final class SharedCluster {
        private static KplaneCluster cluster;

        private SharedCluster() {}

        static synchronized KplaneCluster get() {
            if (cluster == null) {
                cluster = KplaneCluster.start(KplaneHome.locate(), componentArgs());
                Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "kplane-junit-stop"));
                System.out.printf(
                        "kplane: stack started in %.1f s, %d MiB resident (launcher and components), "
                                + "API server %s, logs in %s%n",
                        cluster.startDuration().toMillis() / 1000.0,
                        cluster.residentMemoryMiB(),
                        cluster.server(),
                        cluster.stateDir().resolve("logs"));
            }
            return cluster;
        }

        private static List<String> componentArgs() {
            String value = System.getProperty(COMPONENT_ARGS_PROPERTY, "");
            return new ArrayList<>(Arrays.stream(value.split(","))
                    .map(String::trim)
                    .filter(s -> !s.isEmpty())
                    .toList());
        }
    }
}
