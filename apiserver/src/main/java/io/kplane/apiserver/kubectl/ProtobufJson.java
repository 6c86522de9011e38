package io.kplane.apiserver.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.kplane.api.json.Json;
import java.io.IOException;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts a generated k8s.io/api protobuf message into the JSON Kubernetes would have written for the
 * same Go object. The proto field names already are the JSON names; what differs is handled here:
 * <ul>
 *   <li>{@code Time}/{@code MicroTime} ({@code seconds}, {@code nanos}) become RFC 3339 strings, and Go's
 *       zero time (what a non-pointer time field carries when unset) is dropped;</li>
 *   <li>{@code IntOrString} becomes a number or a string, {@code Quantity} its string;</li>
 *   <li>{@code RawExtension} and {@code FieldsV1} carry raw JSON;</li>
 *   <li>Go writes every non-pointer field to protobuf, even empty ones, where its JSON encoding omits
 *       them ({@code omitempty}); empty strings, {@code false} and {@code 0} are therefore dropped, except
 *       for the pointer fields in {@link #MEANINGFUL_ZERO} where zero is a value ({@code backoffLimit: 0}).</li>
 * </ul>
 */
final class ProtobufJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
    /** Go's zero {@code time.Time} as Unix seconds: {@code 0001-01-01T00:00:00Z}. */
    private static final long GO_ZERO_TIME = -62135596800L;

    /** Optional (pointer) fields of the kinds we decode whose zero value differs from "unset". */
    private static final Set<String> MEANINGFUL_ZERO = Set.of(
            "parallelism",
            "completions",
            "activeDeadlineSeconds",
            "backoffLimit",
            "backoffLimitPerIndex",
            "maxFailedIndexes",
            "ttlSecondsAfterFinished",
            "suspend",
            "manualSelector",
            "startingDeadlineSeconds",
            "successfulJobsHistoryLimit",
            "failedJobsHistoryLimit",
            "terminationGracePeriodSeconds",
            "automountServiceAccountToken",
            "enableServiceLinks",
            "hostUsers",
            "runAsUser",
            "runAsGroup",
            "runAsNonRoot",
            "privileged",
            "readOnlyRootFilesystem",
            "allowPrivilegeEscalation",
            "gracePeriodSeconds",
            "deletionGracePeriodSeconds",
            "priority",
            "controller",
            "blockOwnerDeletion",
            "optional",
            "immutable",
            "defaultMode",
            "exitCode",
            "restartCount",
            "ready",
            "minCount",
            "count",
            "succeeded",
            "failed",
            "active");

    /** Go structs embedded with {@code json:",inline"}: their fields belong to the parent in JSON. */
    private static final Set<String> INLINE = Set.of(
            "k8s.io.api.core.v1.ProbeHandler",
            "k8s.io.api.core.v1.VolumeSource",
            "k8s.io.api.core.v1.PersistentVolumeSource");

    private ProtobufJson() {}

    static ObjectNode toJson(Message message) {
        ObjectNode out = NODES.objectNode();
        for (Map.Entry<FieldDescriptor, Object> e : message.getAllFields().entrySet()) {
            FieldDescriptor field = e.getKey();
            String name = field.getName();
            if (field.isMapField()) {
                ObjectNode map = NODES.objectNode();
                for (Object entry : (List<?>) e.getValue()) {
                    Message m = (Message) entry;
                    FieldDescriptor keyField = m.getDescriptorForType().findFieldByName("key");
                    FieldDescriptor valueField = m.getDescriptorForType().findFieldByName("value");
                    JsonNode value = value(valueField, m.getField(valueField));
                    map.set(String.valueOf(m.getField(keyField)), value == null ? NODES.nullNode() : value);
                }
                out.set(name, map);
            } else if (field.isRepeated()) {
                ArrayNode array = NODES.arrayNode();
                for (Object item : (List<?>) e.getValue()) {
                    JsonNode value = value(field, item);
                    array.add(value == null ? NODES.nullNode() : value);
                }
                out.set(name, array);
            } else if (isInline(field)) {
                JsonNode value = value(field, e.getValue());
                if (value instanceof ObjectNode inline) {
                    out.setAll(inline);
                }
            } else {
                JsonNode value = value(field, e.getValue());
                if (value != null && !(isZero(value) && !MEANINGFUL_ZERO.contains(name))) {
                    out.set(name, value);
                }
            }
        }
        return out;
    }

    private static boolean isInline(FieldDescriptor field) {
        return field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                && INLINE.contains(field.getMessageType().getFullName());
    }

    private static boolean isZero(JsonNode value) {
        return (value.isTextual() && value.asText().isEmpty())
                || (value.isBoolean() && !value.asBoolean())
                || (value.isIntegralNumber() && value.asLong() == 0);
    }

    /** The JSON of one (non-repeated) value, or null when Go's JSON would leave it out. */
    private static JsonNode value(FieldDescriptor field, Object value) {
        return switch (field.getJavaType()) {
            case STRING -> NODES.textNode((String) value);
            case INT -> NODES.numberNode((Integer) value);
            case LONG -> NODES.numberNode((Long) value);
            case BOOLEAN -> NODES.booleanNode((Boolean) value);
            case FLOAT -> NODES.numberNode((Float) value);
            case DOUBLE -> NODES.numberNode((Double) value);
            case BYTE_STRING -> NODES.textNode(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
            case ENUM -> NODES.textNode(value.toString());
            case MESSAGE -> message((Message) value);
        };
    }

    private static JsonNode message(Message m) {
        String type = m.getDescriptorForType().getFullName();
        switch (type) {
            case META + "Time", META + "MicroTime" -> {
                long seconds = (Long) fieldValue(m, "seconds", 0L);
                int nanos = (Integer) fieldValue(m, "nanos", 0);
                if (seconds <= GO_ZERO_TIME) {
                    return null;
                }
                Instant t = Instant.ofEpochSecond(seconds, type.endsWith("MicroTime") ? nanos / 1000 * 1000L : 0);
                return NODES.textNode(Json.formatTime(t));
            }
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
                long kind = ((Number) fieldValue(m, "type", 0L)).longValue();
                return kind == 1
                        ? NODES.textNode((String) fieldValue(m, "strVal", ""))
                        : NODES.numberNode((Integer) fieldValue(m, "intVal", 0));
            }
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> {
                return NODES.textNode((String) fieldValue(m, "string", ""));
            }
            case META + "Duration" -> {
                return NODES.textNode(goDuration((Long) fieldValue(m, "duration", 0L)));
            }
            case "k8s.io.apimachinery.pkg.runtime.RawExtension" -> {
                return rawJson((ByteString) fieldValue(m, "raw", ByteString.EMPTY));
            }
            case META + "FieldsV1" -> {
                return rawJson((ByteString) fieldValue(m, "Raw", ByteString.EMPTY));
            }
            default -> {
                return toJson(m);
            }
        }
    }

    private static Object fieldValue(Message m, String name, Object fallback) {
        FieldDescriptor f = m.getDescriptorForType().findFieldByName(name);
        return f == null || !m.hasField(f) ? fallback : m.getField(f);
    }

    private static JsonNode rawJson(ByteString raw) {
        if (raw.isEmpty()) {
            return null;
        }
        try {
            return Json.mapper().readTree(raw.toByteArray());
        } catch (IOException e) {
            return NODES.textNode(raw.toStringUtf8());
        }
    }

    /** Go's {@code time.Duration.String()} for whole seconds and above, e.g. {@code 1h0m30s}. */
    private static String goDuration(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        java.time.Duration d = java.time.Duration.ofNanos(nanos);
        StringBuilder sb = new StringBuilder();
        if (d.toHours() > 0) {
            sb.append(d.toHours()).append('h').append(d.toMinutesPart()).append('m');
        } else if (d.toMinutes() > 0) {
            sb.append(d.toMinutes()).append('m');
        }
        double seconds = d.toSecondsPart() + d.toNanosPart() / 1e9;
        sb.append(seconds == Math.floor(seconds) ? Long.toString((long) seconds) : Double.toString(seconds))
                .append('s');
        return sb.toString();
    }
}
