package io.kplane.kubelet.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.core.ConfigMapKeySelector;
import io.kplane.api.core.EnvFromSource;
import io.kplane.api.core.SecretKeySelector;
import io.kplane.kubelet.runtime.ContainerStartException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Environment variables from ConfigMaps and Secrets, as kubelet_pods.go's makeEnvironmentVariables
 * builds them: {@code envFrom} (each key, with {@code prefix}; keys that are not valid variable names
 * are skipped with a Warning event), {@code valueFrom.configMapKeyRef} / {@code secretKeyRef}. A missing
 * object or key fails the container with CreateContainerConfigError and upstream's message, unless the
 * reference is {@code optional}. Each object is read once per container start.
 */
public final class ConfigEnv {
    /**
     * apimachinery's IsRelaxedEnvVarName: Kubernetes 1.32 enables RelaxedEnvironmentVariableValidation (beta)
     * by default, so any printable ASCII but '=' is a valid name.
     */
    private static final Pattern ENV_NAME = Pattern.compile("[\\x20-\\x3C\\x3E-\\x7E]+");

    /** A Warning event about the pod: reason and message. */
    @FunctionalInterface
    public interface Warnings {
        void warn(String reason, String message);
    }

    private final ConfigObjects objects;
    private final String namespace;
    private final Warnings warnings;
    private final Map<String, Optional<JsonNode>> configMaps = new HashMap<>();
    private final Map<String, Optional<JsonNode>> secrets = new HashMap<>();

    public ConfigEnv(ConfigObjects objects, String namespace, Warnings warnings) {
        this.objects = objects;
        this.namespace = namespace;
        this.warnings = warnings;
    }

    /** The variables of every {@code envFrom} entry, in order (a later entry overrides an earlier key). */
    public Map<String, String> envFrom(List<EnvFromSource> sources) throws ContainerStartException {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvFromSource from : sources) {
            String prefix = from.prefix() == null ? "" : from.prefix();
            Map<String, String> values;
            String what;
            String name;
            if (from.configMapRef() != null) {
                name = from.configMapRef().name();
                what = "configMap";
                Optional<JsonNode> cm = configMap(name, from.configMapRef().isOptional());
                if (cm.isEmpty()) {
                    continue;
                }
                values = ObjectData.configMapText(cm.get());
            } else if (from.secretRef() != null) {
                name = from.secretRef().name();
                what = "secret";
                Optional<JsonNode> secret = secret(name, from.secretRef().isOptional());
                if (secret.isEmpty()) {
                    continue;
                }
                values = new LinkedHashMap<>();
                for (var e : ObjectData.secretData(secret.get()).entrySet()) {
                    values.put(e.getKey(), new String(e.getValue(), StandardCharsets.UTF_8));
                }
            } else {
                continue;
            }
            TreeSet<String> invalid = new TreeSet<>();
            for (var e : values.entrySet()) {
                String key = prefix + e.getKey();
                if (!ENV_NAME.matcher(key).matches()) {
                    invalid.add(key);
                    continue;
                }
                env.put(key, e.getValue());
            }
            if (!invalid.isEmpty()) {
                warnings.warn(
                        "InvalidEnvironmentVariableNames",
                        "Keys [" + String.join(", ", new ArrayList<>(invalid))
                                + "] from the EnvFrom " + what + " " + namespace + "/" + name
                                + " were skipped since they are considered invalid environment variable names.");
            }
        }
        return env;
    }

    /** The value of a ConfigMap key; empty when the reference is optional and the object or key is missing. */
    public Optional<String> value(ConfigMapKeySelector ref) throws ContainerStartException {
        Optional<JsonNode> cm = configMap(ref.name(), ref.isOptional());
        if (cm.isEmpty()) {
            return Optional.empty();
        }
        String value = ObjectData.configMapText(cm.get()).get(ref.key());
        if (value == null) {
            if (ref.isOptional()) {
                return Optional.empty();
            }
            throw configError("couldn't find key " + ref.key() + " in ConfigMap " + namespace + "/" + ref.name());
        }
        return Optional.of(value);
    }

    /** The value of a Secret key; empty when the reference is optional and the object or key is missing. */
    public Optional<String> value(SecretKeySelector ref) throws ContainerStartException {
        Optional<JsonNode> secret = secret(ref.name(), ref.isOptional());
        if (secret.isEmpty()) {
            return Optional.empty();
        }
        byte[] value = ObjectData.secretData(secret.get()).get(ref.key());
        if (value == null) {
            if (ref.isOptional()) {
                return Optional.empty();
            }
            throw configError("couldn't find key " + ref.key() + " in Secret " + namespace + "/" + ref.name());
        }
        return Optional.of(new String(value, StandardCharsets.UTF_8));
    }

    private Optional<JsonNode> configMap(String name, boolean optional) throws ContainerStartException {
        Optional<JsonNode> cm = configMaps.computeIfAbsent(name, n -> fetch(() -> objects.configMap(namespace, n)));
        if (cm.isEmpty() && !optional) {
            // the kubelet's configmap manager reports its own NotFound for group resource "configmap"
            throw configError("configmap \"" + name + "\" not found");
        }
        return cm;
    }

    private Optional<JsonNode> secret(String name, boolean optional) throws ContainerStartException {
        Optional<JsonNode> secret = secrets.computeIfAbsent(name, n -> fetch(() -> objects.secret(namespace, n)));
        if (secret.isEmpty() && !optional) {
            throw configError("secret \"" + name + "\" not found");
        }
        return secret;
    }

    private static Optional<JsonNode> fetch(java.util.function.Supplier<Optional<JsonNode>> get) {
        return get.get();
    }

    private static ContainerStartException configError(String message) {
        return ContainerStartException.waiting(ContainerStartException.CREATE_CONFIG_ERROR, message);
    }
}
