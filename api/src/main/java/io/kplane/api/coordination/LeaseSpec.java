package io.kplane.api.coordination;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.kplane.api.json.MicroTimeSerializer;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;

/**
 * coordination.k8s.io/v1 LeaseSpec. acquireTime and renewTime are MicroTimes.
 */
@RecordBuilder
public record LeaseSpec(
        String holderIdentity,
        Integer leaseDurationSeconds,
        @JsonSerialize(using = MicroTimeSerializer.class) Instant acquireTime,
        @JsonSerialize(using = MicroTimeSerializer.class) Instant renewTime,
        Integer leaseTransitions,
        String strategy,
        String preferredHolder)
        implements LeaseSpecBuilder.With {}
