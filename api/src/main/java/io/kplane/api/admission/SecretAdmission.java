package io.kplane.api.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.kplane.api.core.Secret;
import io.kplane.api.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Secrets ({@code ValidateSecret}, {@code ValidateSecretUpdate}): type defaulted to {@code Opaque};
 * {@code stringData} merged into {@code data} (base64) and dropped, as the v1 conversion does, so it is
 * never stored; key names, size, per-type required keys, immutability. Base64 of {@code data} is
 * checked earlier, at decoding (a 400, as in Kubernetes).
 */
public final class SecretAdmission extends TypedAdmission<Secret> {
    static final String OPAQUE = "Opaque";
    static final String SERVICE_ACCOUNT_TOKEN = "kubernetes.io/service-account-token";
    static final String DOCKERCFG = "kubernetes.io/dockercfg";
    static final String DOCKER_CONFIG_JSON = "kubernetes.io/dockerconfigjson";
    static final String BASIC_AUTH = "kubernetes.io/basic-auth";
    static final String SSH_AUTH = "kubernetes.io/ssh-auth";
    static final String TLS = "kubernetes.io/tls";
    static final String SERVICE_ACCOUNT_NAME_KEY = "kubernetes.io/service-account.name";
    static final String REDACTED = "<secret contents redacted>";

    public SecretAdmission() {
        super(Secret.class, true, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    Secret applyDefaults(Secret secret) {
        Secret s = secret;
        if (s.type() == null || s.type().isEmpty()) {
            s = s.withType(OPAQUE);
        }
        if (s.stringData() != null) {
            Map<String, String> data = new LinkedHashMap<>(DataKeys.orEmpty(s.data()));
            s.stringData()
                    .forEach((k, v) -> data.put(
                            k,
                            Base64.getEncoder().encodeToString((v == null ? "" : v).getBytes(StandardCharsets.UTF_8))));
            s = s.withData(data).withStringData(null);
        }
        return s;
    }

    @Override
    void validateSpec(Secret secret, FieldErrors errs) {
        Map<String, String> data = DataKeys.orEmpty(secret.data());
        long size = 0;
        for (String key : DataKeys.sorted(data)) {
            errs.invalidEach(DataKeys.path("data", key), key, NameRules.configMapKey(key));
            size += DataKeys.decodedLength(data.get(key));
        }
        if (size > ConfigMapAdmission.MAX_SIZE) {
            errs.add(FieldError.tooLong("data", ConfigMapAdmission.MAX_SIZE));
        }
        String type = secret.type() == null ? "" : secret.type();
        switch (type) {
            case SERVICE_ACCOUNT_TOKEN -> {
                Map<String, String> annotations =
                        secret.metadata() == null ? Map.of() : secret.metadata().annotationsOrEmpty();
                String sa = annotations.get(SERVICE_ACCOUNT_NAME_KEY);
                if (sa == null || sa.isEmpty()) {
                    errs.add(FieldError.required(DataKeys.path("metadata.annotations", SERVICE_ACCOUNT_NAME_KEY), ""));
                }
            }
            case DOCKERCFG -> requireJson(data, ".dockercfg", errs);
            case DOCKER_CONFIG_JSON -> requireJson(data, ".dockerconfigjson", errs);
            case BASIC_AUTH -> {
                if (!data.containsKey("username") && !data.containsKey("password")) {
                    errs.add(FieldError.required(DataKeys.path("data", "username"), ""));
                    errs.add(FieldError.required(DataKeys.path("data", "password"), ""));
                }
            }
            case SSH_AUTH -> {
                if (DataKeys.decodedLength(data.get("ssh-privatekey")) == 0) {
                    errs.add(FieldError.required(DataKeys.path("data", "ssh-privatekey"), ""));
                }
            }
            case TLS -> {
                if (!data.containsKey("tls.crt")) {
                    errs.add(FieldError.required(DataKeys.path("data", "tls.crt"), ""));
                }
                if (!data.containsKey("tls.key")) {
                    errs.add(FieldError.required(DataKeys.path("data", "tls.key"), ""));
                }
            }
            default -> {}
        }
    }

    private static void requireJson(Map<String, String> data, String key, FieldErrors errs) {
        String path = DataKeys.path("data", key);
        if (!data.containsKey(key)) {
            errs.add(FieldError.required(path, ""));
            return;
        }
        try {
            byte[] raw = Base64.getDecoder().decode(data.get(key) == null ? "" : data.get(key));
            if (!Json.mapper().readTree(raw).isObject()) {
                errs.add(FieldError.invalid(
                        path, REDACTED, "json: cannot unmarshal into Go value of type map[string]interface {}"));
            }
        } catch (IllegalArgumentException | JsonProcessingException e) {
            errs.add(FieldError.invalid(path, REDACTED, "invalid character in JSON input"));
        } catch (java.io.IOException e) {
            errs.add(FieldError.invalid(path, REDACTED, "unexpected end of JSON input"));
        }
    }

    @Override
    void validateSpecUpdate(Secret newSecret, Secret oldSecret, FieldErrors errs) {
        errs.immutable("type", newSecret.type(), oldSecret.type());
        if (Boolean.TRUE.equals(oldSecret.immutable())) {
            if (!Boolean.TRUE.equals(newSecret.immutable())) {
                errs.add(FieldError.forbidden("immutable", DataKeys.IMMUTABLE));
            }
            if (!Objects.equals(DataKeys.orNullIfEmpty(newSecret.data()), DataKeys.orNullIfEmpty(oldSecret.data()))) {
                errs.add(FieldError.forbidden("data", DataKeys.IMMUTABLE));
            }
        }
        validateSpec(newSecret, errs);
    }
}
