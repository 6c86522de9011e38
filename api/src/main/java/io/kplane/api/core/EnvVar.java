package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * One environment variable of a container.
 */
@RecordBuilder
public record EnvVar(String name, String value, EnvVarSource valueFrom) implements EnvVarBuilder.With {
    public static EnvVar of(String name, String value) {
        return new EnvVar(name, value, null);
    }
}
