package io.kplane.client;

import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.meta.ObjectMeta;
import java.util.List;
import java.util.Map;

/** Minimal valid pods for tests. */
public final class TestPods {
    private TestPods() {}

    /** Creates namespace {@code name} (ignoring AlreadyExists) and returns it. */
    public static String namespace(KubeClient client, String name) {
        try {
            client.namespaces()
                    .create(new io.kplane.api.core.Namespace(null, null, ObjectMeta.named(null, name), null, null));
        } catch (ApiException e) {
            if (!e.isAlreadyExists()) {
                throw e;
            }
        }
        return name;
    }

    public static Pod pod(String namespace, String name, Map<String, String> labels) {
        return new Pod(
                null,
                null,
                ObjectMeta.named(namespace, name).withLabels(labels.isEmpty() ? null : labels),
                PodSpecBuilder.builder()
                        .containers(List.of(ContainerBuilder.builder()
                                .name("main")
                                .image("busybox")
                                .command(List.of("sh", "-c", "true"))
                                .build()))
                        .restartPolicy("Never")
                        .build(),
                null);
    }
}
