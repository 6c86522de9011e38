package io.kplane.controllers.testing;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.CronJobSpecBuilder;
import io.kplane.api.batch.JobSpecBuilder;
import io.kplane.api.batch.JobTemplateSpec;
import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.core.PodTemplateSpec;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** Minimal valid objects for tests. */
public final class TestObjects {
    private TestObjects() {}

    /** A CronJob running {@code * * * * *} a one-container Job, adjusted by {@code spec}. */
    public static CronJob cronJob(String ns, String name, UnaryOperator<CronJobSpecBuilder> spec) {
        Container container =
                ContainerBuilder.builder().name("main").image("busybox").build();
        PodTemplateSpec pod = new PodTemplateSpec(
                ObjectMetaBuilder.builder().build(),
                PodSpecBuilder.builder()
                        .containers(List.of(container))
                        .restartPolicy("Never")
                        .build());
        JobTemplateSpec template = new JobTemplateSpec(
                ObjectMetaBuilder.builder().labels(Map.of("app", name)).build(),
                JobSpecBuilder.builder().template(pod).build());
        CronJobSpecBuilder builder =
                CronJobSpecBuilder.builder().schedule("* * * * *").jobTemplate(template);
        return new CronJob(
                null, null, ObjectMeta.named(ns, name), spec.apply(builder).build(), null);
    }
}
