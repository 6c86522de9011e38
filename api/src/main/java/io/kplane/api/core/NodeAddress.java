package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * An address of a node (type InternalIP, Hostname, ...).
 */
@RecordBuilder
public record NodeAddress(String type, String address) implements NodeAddressBuilder.With {}
