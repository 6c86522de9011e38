package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * core/v1 NamespaceStatus: phase Active or Terminating.
 */
@RecordBuilder
public record NamespaceStatus(String phase, List<JsonNode> conditions) implements NamespaceStatusBuilder.With {
    public static final String ACTIVE = "Active";
    public static final String TERMINATING = "Terminating";
}
