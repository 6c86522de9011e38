package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * Endpoints of the daemons running on a node; the kubelet's is where logs are served.
 */
@RecordBuilder
public record NodeDaemonEndpoints(DaemonEndpoint kubeletEndpoint) implements NodeDaemonEndpointsBuilder.With {}
