package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * Facts about a node's machine and software.
 */
@RecordBuilder
public record NodeSystemInfo(
        String machineID,
        String systemUUID,
        String bootID,
        String kernelVersion,
        String osImage,
        String containerRuntimeVersion,
        String kubeletVersion,
        String kubeProxyVersion,
        String operatingSystem,
        String architecture)
        implements NodeSystemInfoBuilder.With {}
