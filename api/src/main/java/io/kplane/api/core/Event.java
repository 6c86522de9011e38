package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.kplane.api.json.MicroTimeSerializer;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;

/**
 * core/v1 Event, the kind {@code kubectl describe} and {@code kubectl get events} read. eventTime is a
 * MicroTime.
 */
@RecordBuilder
public record Event(
        String apiVersion,
        String kind,
        ObjectMeta metadata,
        ObjectReference involvedObject,
        String reason,
        String message,
        EventSource source,
        Instant firstTimestamp,
        Instant lastTimestamp,
        Integer count,
        String type,
        @JsonSerialize(using = MicroTimeSerializer.class) Instant eventTime,
        JsonNode series,
        String action,
        ObjectReference related,
        String reportingComponent,
        String reportingInstance)
        implements EventBuilder.With, KubeObject {
    public static final String API_VERSION = "v1";
    public static final String KIND = "Event";

    public Event {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public Event withMetadata(ObjectMeta metadata) {
        return EventBuilder.With.super.withMetadata(metadata);
    }
}
