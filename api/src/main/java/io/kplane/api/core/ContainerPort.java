package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * A port a container exposes.
 */
@RecordBuilder
public record ContainerPort(String name, Integer hostPort, Integer containerPort, String protocol, String hostIP)
        implements ContainerPortBuilder.With {}
