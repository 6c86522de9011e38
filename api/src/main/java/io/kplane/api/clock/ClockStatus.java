package io.kplane.api.clock;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.kplane.api.json.MicroTimeSerializer;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;

/**
 * The clock as every component computes it, written by the API server on each change of the spec:
 * cluster time = {@code clusterAnchor + (wall − wallAnchor) × rate}; rate 0 is a frozen clock.
 *
 * @param mode               the mode in effect (copied from the spec it was computed from)
 * @param wallAnchor         the wall-clock instant of the last change
 * @param clusterAnchor      the cluster time at that instant
 * @param rate               cluster seconds per wall second: 1 real/offset, 0 frozen, N for Rate
 * @param observedGeneration the spec generation this status was computed from
 */
@RecordBuilder
public record ClockStatus(
        String mode,
        @JsonSerialize(using = MicroTimeSerializer.class) Instant wallAnchor,
        @JsonSerialize(using = MicroTimeSerializer.class) Instant clusterAnchor,
        Long rate,
        Long observedGeneration)
        implements ClockStatusBuilder.With {}
