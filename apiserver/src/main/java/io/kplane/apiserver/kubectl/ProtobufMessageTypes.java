package io.kplane.apiserver.kubectl;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Rbac;
import java.util.Map;

/**
 * Finds the generated k8s.io/api protobuf message of an {@code apiVersion} and {@code kind}, as
 * kube-apiserver's scheme does for a protobuf body: the message is the Go type's name in the
 * group/version's proto package ({@code k8s.io.api.core.v1.ConfigMap}), so every served kind whose
 * group has a generated package decodes with no per-kind entry. {@code client-java-proto} has no
 * package for {@code coordination.k8s.io} nor for kplane's own groups: those get a 415 (kubectl sends
 * them as JSON; only its typed {@code create} commands use protobuf).
 */
final class ProtobufMessageTypes {
    /** apiVersion → the generated file holding its messages. */
    private static final Map<String, FileDescriptor> PACKAGES = Map.of(
            "v1", V1.getDescriptor(),
            "batch/v1", V1Batch.getDescriptor(),
            "rbac.authorization.k8s.io/v1", V1Rbac.getDescriptor());

    private ProtobufMessageTypes() {}

    /** The message of {@code apiVersion}/{@code kind}, or null when there is none. */
    static Descriptor find(String apiVersion, String kind) {
        FileDescriptor file = PACKAGES.get(apiVersion);
        if (file == null || kind.isEmpty()) {
            return null;
        }
        Descriptor message = file.findMessageTypeByName(kind);
        // only objects: a top-level kind has metadata (ObjectMeta or ListMeta), unlike e.g. PodSpec
        return message != null && message.findFieldByName("metadata") != null ? message : null;
    }
}
