package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * core/v1 NodeSpec.
 */
@RecordBuilder
public record NodeSpec(
        String podCIDR,
        List<String> podCIDRs,
        String providerID,
        Boolean unschedulable,
        List<JsonNode> taints,
        JsonNode configSource,
        String externalID)
        implements NodeSpecBuilder.With {}
