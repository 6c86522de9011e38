package io.kplane.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.admission.ConfigMapAdmission;
import io.kplane.api.admission.SecretAdmission;
import io.kplane.api.admission.ServiceAccountAdmission;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.kubectl.Printers;
import java.util.Iterator;
import java.util.Map;

/**
 * ConfigMaps, Secrets and ServiceAccounts. Base64 bags ({@code Secret.data}, {@code ConfigMap.binaryData})
 * are Go {@code []byte} fields in Kubernetes: a value that is not base64 fails decoding, a 400
 * {@code Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte N}.
 */
final class ConfigStrategies {
    private ConfigStrategies() {}

    static ResourceStrategy configMaps() {
        return new GenericStrategy(ResourceTypes.CONFIGMAPS, new ConfigMapAdmission(), Printers.configMap()) {
            @Override
            public void checkDecodable(ObjectNode object) {
                checkBase64(object.get("binaryData"), "ConfigMap");
            }
        };
    }

    static ResourceStrategy secrets() {
        return new GenericStrategy(ResourceTypes.SECRETS, new SecretAdmission(), Printers.secret()) {
            @Override
            public void checkDecodable(ObjectNode object) {
                checkBase64(object.get("data"), "Secret");
            }
        };
    }

    static ResourceStrategy serviceAccounts() {
        return new GenericStrategy(
                ResourceTypes.SERVICEACCOUNTS, new ServiceAccountAdmission(), Printers.serviceAccount());
    }

    private static void checkBase64(JsonNode bag, String kind) {
        if (bag == null || !bag.isObject()) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = bag.fields(); it.hasNext(); ) {
            JsonNode value = it.next().getValue();
            if (value.isTextual()) {
                int bad = Base64Check.firstIllegalByte(value.asText());
                if (bad >= 0) {
                    throw ApiError.badRequest(kind + " in version \"v1\" cannot be handled as a " + kind
                            + ": illegal base64 data at input byte " + bad);
                }
            }
        }
    }
}
