package io.kplane.apiserver.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.kplane.api.ResourceType;
import io.kplane.apiserver.codec.RequestBodyDecoder;
import io.kplane.apiserver.errors.ApiError;
import io.kubernetes.client.proto.Runtime;
import io.vertx.core.buffer.Buffer;
import java.util.Arrays;

/**
 * Reads {@code application/vnd.kubernetes.protobuf} request bodies, which kubectl 1.32's typed client
 * sends for its {@code create} commands ({@code create job --from=cronjob/...}, {@code create configmap},
 * {@code create secret}, {@code create namespace}, {@code create serviceaccount}, {@code create role}...): the
 * magic {@code k8s\0} followed by a {@code runtime.Unknown} whose {@code raw} is the encoded object.
 * The object is decoded with the generated k8s.io/api message of its kind ({@link ProtobufMessageTypes})
 * and handed on as JSON, so the request
 * continues exactly like a JSON one (admission, strict field validation, storage).
 */
public final class ProtobufBodyDecoder implements RequestBodyDecoder {
    public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};

    @Override
    public boolean supports(String mediaType) {
        return MEDIA_TYPE.equals(mediaType);
    }

    @Override
    public JsonNode decode(Buffer body, ResourceType resource) {
        byte[] bytes = body == null ? new byte[0] : body.getBytes();
        if (bytes.length < MAGIC.length || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw ApiError.badRequest("error decoding protobuf: the body does not start with the k8s\\0 prefix");
        }
        Runtime.Unknown unknown;
        try {
            unknown = Runtime.Unknown.parseFrom(Arrays.copyOfRange(bytes, MAGIC.length, bytes.length));
        } catch (InvalidProtocolBufferException e) {
            throw ApiError.badRequest("error decoding protobuf: " + e.getMessage());
        }
        String apiVersion = unknown.getTypeMeta().getApiVersion();
        String kind = unknown.getTypeMeta().getKind();
        if (apiVersion.isEmpty() && resource != null) {
            apiVersion = resource.apiVersion();
        }
        if (kind.isEmpty() && resource != null) {
            kind = resource.kind();
        }
        Descriptor type = ProtobufMessageTypes.find(apiVersion, kind);
        if (type == null) {
            throw ApiError.of(
                    415,
                    "UnsupportedMediaType",
                    "protobuf request bodies are not supported for "
                            + (apiVersion.isEmpty() ? "" : apiVersion + ", Kind=") + kind + "; send application/json");
        }
        Message object;
        try {
            object = DynamicMessage.parseFrom(type, unknown.getRaw());
        } catch (InvalidProtocolBufferException e) {
            throw ApiError.badRequest("error decoding protobuf " + kind + ": " + e.getMessage());
        }
        ObjectNode json = ProtobufJson.toJson(object);
        ObjectNode out = json.objectNode();
        out.put("apiVersion", apiVersion);
        out.put("kind", kind);
        out.setAll(json);
        return out;
    }
}
