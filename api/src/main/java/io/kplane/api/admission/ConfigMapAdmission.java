package io.kplane.api.admission;

import io.kplane.api.core.ConfigMap;
import java.util.Map;
import java.util.Objects;

/** ConfigMaps ({@code ValidateConfigMap}, {@code ValidateConfigMapUpdate}): key names, size, immutability. */
public final class ConfigMapAdmission extends TypedAdmission<ConfigMap> {
    /** {@code core.MaxSecretSize}: the same 1 MiB limit applies to ConfigMaps. */
    static final int MAX_SIZE = 1024 * 1024;

    public ConfigMapAdmission() {
        super(ConfigMap.class, true, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    void validateSpec(ConfigMap cm, FieldErrors errs) {
        Map<String, String> data = DataKeys.orEmpty(cm.data());
        Map<String, String> binary = DataKeys.orEmpty(cm.binaryData());
        long size = 0;
        for (String key : DataKeys.sorted(data)) {
            String path = DataKeys.path("data", key);
            errs.invalidEach(path, key, NameRules.configMapKey(key));
            if (binary.containsKey(key)) {
                errs.add(FieldError.invalid(path, key, "duplicate of key present in binaryData"));
            }
            size += DataKeys.utf8Length(data.get(key));
        }
        for (String key : DataKeys.sorted(binary)) {
            String path = DataKeys.path("binaryData", key);
            errs.invalidEach(path, key, NameRules.configMapKey(key));
            if (data.containsKey(key)) {
                errs.add(FieldError.invalid(path, key, "duplicate of key present in data"));
            }
            size += DataKeys.decodedLength(binary.get(key));
        }
        if (size > MAX_SIZE) {
            errs.add(FieldError.tooLong("", MAX_SIZE));
        }
    }

    @Override
    void validateSpecUpdate(ConfigMap newCm, ConfigMap oldCm, FieldErrors errs) {
        if (Boolean.TRUE.equals(oldCm.immutable())) {
            if (!Boolean.TRUE.equals(newCm.immutable())) {
                errs.add(FieldError.forbidden("immutable", DataKeys.IMMUTABLE));
            }
            if (!Objects.equals(DataKeys.orNullIfEmpty(newCm.data()), DataKeys.orNullIfEmpty(oldCm.data()))) {
                errs.add(FieldError.forbidden("data", DataKeys.IMMUTABLE));
            }
            if (!Objects.equals(
                    DataKeys.orNullIfEmpty(newCm.binaryData()), DataKeys.orNullIfEmpty(oldCm.binaryData()))) {
                errs.add(FieldError.forbidden("binaryData", DataKeys.IMMUTABLE));
            }
        }
        validateSpec(newCm, errs);
    }
}
