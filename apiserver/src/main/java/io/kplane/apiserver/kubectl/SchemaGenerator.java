package io.kplane.apiserver.kubectl;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * OpenAPI v3 schemas for the API's records, found by Jackson's own introspection (so property names
 * are exactly the ones the server reads and writes). Each record becomes one entry of
 * {@code components.schemas}, named like Kubernetes names it ({@code io.k8s.api.batch.v1.JobSpec}),
 * and references to it are {@code allOf: [{$ref}]} as kube-apiserver writes them.
 */
final class SchemaGenerator {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Map<String, String> PACKAGES = Map.of(
            "io.kplane.api.batch", "io.k8s.api.batch.v1",
            "io.kplane.api.core", "io.k8s.api.core.v1",
            "io.kplane.api.coordination", "io.k8s.api.coordination.v1",
            "io.kplane.api.meta", "io.k8s.apimachinery.pkg.apis.meta.v1");

    private final ObjectMapper mapper;
    private final Map<String, ObjectNode> schemas = new TreeMap<>();

    SchemaGenerator(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The schemas generated so far, by name. */
    Map<String, ObjectNode> schemas() {
        return schemas;
    }

    static String schemaName(Class<?> type) {
        String pkg = type.getPackageName();
        return PACKAGES.getOrDefault(pkg, pkg) + "." + type.getSimpleName();
    }

    /** Generates (once) the schema of {@code type} and everything it refers to; returns its name. */
    String define(Class<?> type) {
        String name = schemaName(type);
        if (schemas.containsKey(name)) {
            return name;
        }
        ObjectNode schema = NODES.objectNode();
        schema.put("type", "object");
        String description = OpenApiDescriptions.of(name);
        if (description != null) {
            schema.put("description", description);
        }
        schemas.put(name, schema); // before the walk: records refer to themselves through lists
        ObjectNode properties = schema.putObject("properties");
        JavaType javaType = mapper.constructType(type);
        BeanDescription bean = mapper.getSerializationConfig().introspect(javaType);
        for (BeanPropertyDefinition p : bean.findProperties()) {
            if (!p.couldSerialize()) {
                continue;
            }
            ObjectNode property = property(p.getPrimaryType());
            String fieldDescription = OpenApiDescriptions.of(name + "." + p.getName());
            if (fieldDescription != null) {
                property.put("description", fieldDescription);
            }
            properties.set(p.getName(), property);
        }
        return name;
    }

    private ObjectNode property(JavaType t) {
        Class<?> raw = t.getRawClass();
        ObjectNode s = NODES.objectNode();
        if (raw == String.class || raw.isEnum() || raw == Character.class) {
            s.put("type", "string");
        } else if (raw == Integer.class || raw == int.class || raw == Short.class || raw == short.class) {
            s.put("type", "integer").put("format", "int32");
        } else if (raw == Long.class || raw == long.class) {
            s.put("type", "integer").put("format", "int64");
        } else if (raw == Boolean.class || raw == boolean.class) {
            s.put("type", "boolean");
        } else if (raw == Double.class || raw == double.class || raw == Float.class || raw == float.class) {
            s.put("type", "number").put("format", "double");
        } else if (raw == Instant.class) {
            s.put("type", "string").put("format", "date-time");
        } else if (Map.class.isAssignableFrom(raw)) {
            s.put("type", "object");
            s.set("additionalProperties", property(t.getContentType()));
        } else if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
            s.put("type", "array");
            s.set("items", property(t.getContentType()));
        } else if (JsonNode.class.isAssignableFrom(raw) || raw == Object.class) {
            s.put("type", "object");
            s.put("x-kubernetes-preserve-unknown-fields", true);
        } else if (raw.getPackageName().startsWith("io.kplane.api")) {
            String ref = define(raw);
            s.putArray("allOf").addObject().put("$ref", "#/components/schemas/" + ref);
            s.putObject("default");
        } else {
            s.put("type", "object");
        }
        return s;
    }
}
