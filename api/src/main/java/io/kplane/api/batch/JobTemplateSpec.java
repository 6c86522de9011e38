package io.kplane.api.batch;

import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * The Job a CronJob creates: metadata and spec.
 */
@RecordBuilder
public record JobTemplateSpec(ObjectMeta metadata, JobSpec spec) implements JobTemplateSpecBuilder.With {}
