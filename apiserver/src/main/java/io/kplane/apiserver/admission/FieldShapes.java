package io.kplane.apiserver.admission;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonIncludeProperties;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.AnnotationIntrospector;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializer;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import com.fasterxml.jackson.databind.deser.impl.NullsFailProvider;
import com.fasterxml.jackson.databind.deser.std.CollectionDeserializer;
import com.fasterxml.jackson.databind.deser.std.ContainerDeserializerBase;
import com.fasterxml.jackson.databind.deser.std.MapDeserializer;
import com.fasterxml.jackson.databind.deser.std.ObjectArrayDeserializer;
import com.fasterxml.jackson.databind.deser.std.StringArrayDeserializer;
import com.fasterxml.jackson.databind.deser.std.StringCollectionDeserializer;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.AnnotatedMethod;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.kplane.api.json.Json;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds the {@link FieldShape} of a model type from the very deserializers Jackson uses to decode it,
 * so the known property names, aliases, ignorals and value types are Jackson's own, never a
 * hand-kept list. Anything the walk does not model becomes {@link FieldShape.Kind#OPAQUE}, which
 * hands the object to the decoder: unusual models stay correct, only slower.
 */
final class FieldShapes {
    private final Map<Class<?>, FieldShape> roots = new ConcurrentHashMap<>();
    private final DeserializationConfig config;
    private final DefaultDeserializationContext ctxt;
    private final boolean everyBeanOpaque;
    /** Guarded by {@code this}; shares the shapes of nested types between the roots. */
    private final Map<JsonDeserializer<?>, FieldShape> beans = new IdentityHashMap<>();

    /** Shapes of the types as {@code mapper} decodes them. */
    FieldShapes(ObjectMapper mapper) {
        this(mapper, mapper.getDeserializationConfig());
    }

    /**
     * Shapes of the types as {@code mapper} decodes them under {@code config} (the mapper's, with some
     * features changed). The deserializers come from, and stay in, the mapper's own cache: the decoder
     * that later reads the same type finds them built.
     */
    FieldShapes(ObjectMapper mapper, DeserializationConfig config) {
        this.config = config;
        this.ctxt = ((DefaultDeserializationContext) mapper.getDeserializationContext()).createDummyInstance(config);
        JsonSetter.Value nulls = config.getDefaultSetterInfo();
        // settings under which a missing, null or ignored property is an error the walk would not see
        this.everyBeanOpaque = config.isEnabled(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
                || config.isEnabled(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
                || config.isEnabled(DeserializationFeature.FAIL_ON_IGNORED_PROPERTIES)
                || nulls.getValueNulls() == Nulls.FAIL
                || nulls.getContentNulls() == Nulls.FAIL;
    }

    /** The shape of a model type, built on first use; lock-free afterwards. */
    FieldShape of(Class<?> type) {
        FieldShape shape = roots.get(type);
        return shape != null ? shape : build(type);
    }

    private synchronized FieldShape build(Class<?> type) {
        FieldShape shape = roots.get(type);
        if (shape != null) {
            return shape;
        }
        try {
            shape = root(type);
        } catch (JsonMappingException | RuntimeException e) {
            shape = FieldShape.OPAQUE; // the decoder will report whatever is wrong with the type
        }
        roots.put(type, shape); // published complete: the map's put happens-before every later get
        return shape;
    }

    private FieldShape root(Class<?> type) throws JsonMappingException {
        JavaType javaType = config.constructType(type);
        if (polymorphic(javaType)) {
            return FieldShape.OPAQUE;
        }
        return shape(javaType, ctxt.findRootValueDeserializer(javaType));
    }

    private boolean polymorphic(JavaType type) throws JsonMappingException {
        return ctxt.getFactory().findTypeDeserializer(config, type) != null;
    }

    private FieldShape shape(JavaType type, JsonDeserializer<?> deserializer) throws JsonMappingException {
        if (deserializer == null) {
            deserializer = ctxt.findRootValueDeserializer(type);
        }
        Class<?> raw = type.getRawClass();
        if (deserializer.getClass() == BeanDeserializer.class) {
            return bean(type, (BeanDeserializer) deserializer);
        }
        if (deserializer instanceof CollectionDeserializer
                || deserializer instanceof StringCollectionDeserializer
                || deserializer instanceof ObjectArrayDeserializer
                || deserializer instanceof StringArrayDeserializer) {
            return container(FieldShape.Kind.LIST, type.getContentType(), deserializer);
        }
        if (deserializer instanceof MapDeserializer) {
            Class<?> key = type.getKeyType().getRawClass();
            return key == String.class || key == Object.class
                    ? container(FieldShape.Kind.MAP, type.getContentType(), deserializer)
                    : FieldShape.OPAQUE;
        }
        if (type.isContainerType() || type.isReferenceType()) {
            return FieldShape.OPAQUE;
        }
        boolean stock = deserializer.getClass().getName().startsWith("com.fasterxml.jackson.databind.");
        if (stock) {
            if (raw == JsonNode.class || raw == Object.class) {
                return FieldShape.ANY;
            }
            if (raw == String.class) {
                return FieldShape.STRING;
            }
            if (raw == Integer.class || raw == int.class) {
                return primitive(raw, FieldShape.INT);
            }
            if (raw == Long.class || raw == long.class) {
                return primitive(raw, FieldShape.LONG);
            }
            if (raw == Double.class || raw == double.class) {
                return primitive(raw, FieldShape.DOUBLE);
            }
            if (raw == Boolean.class || raw == boolean.class) {
                return primitive(raw, FieldShape.BOOLEAN);
            }
        }
        if (raw == Instant.class && deserializer.getClass().getName().startsWith(Json.class.getName() + "$")) {
            return FieldShape.INSTANT;
        }
        if (stock && (raw.isPrimitive() || raw.isEnum() || raw.getName().startsWith("java."))) {
            return primitive(raw, FieldShape.SCALAR);
        }
        return FieldShape.OPAQUE;
    }

    private FieldShape primitive(Class<?> raw, FieldShape shape) {
        return raw.isPrimitive() && config.isEnabled(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                ? shape.nullChecked()
                : shape;
    }

    private FieldShape container(FieldShape.Kind kind, JavaType content, JsonDeserializer<?> deserializer)
            throws JsonMappingException {
        if (content.isPrimitive()) {
            return FieldShape.SCALAR; // int[] and the like: no fields inside
        }
        if (polymorphic(content)) {
            return FieldShape.OPAQUE;
        }
        FieldShape shape = new FieldShape(kind, false);
        shape.element = shape(content, ((ContainerDeserializerBase<?>) deserializer).getContentDeserializer());
        return shape;
    }

    private FieldShape bean(JavaType type, BeanDeserializer deserializer) throws JsonMappingException {
        FieldShape known = beans.get(deserializer);
        if (known != null) {
            return known;
        }
        BeanDescription description = config.introspect(type);
        ValueInstantiator instantiator = deserializer.getValueInstantiator();
        JsonIncludeProperties.Value inclusions =
                config.getDefaultPropertyInclusions(type.getRawClass(), description.getClassInfo());
        if (everyBeanOpaque
                || polymorphic(type)
                || deserializer.getObjectIdReader() != null
                || instantiator.canCreateUsingDelegate()
                || instantiator.canCreateUsingArrayDelegate()
                || (inclusions != null && inclusions.getIncluded() != null)
                || unwraps(description)) {
            beans.put(deserializer, FieldShape.OPAQUE);
            return FieldShape.OPAQUE;
        }
        FieldShape shape = new FieldShape(FieldShape.Kind.BEAN, false);
        beans.put(deserializer, shape); // before the properties: a type may contain itself
        shape.deserializer = deserializer;
        Set<String> ignored = new HashSet<>();
        JsonIgnoreProperties.Value ignorals =
                config.getDefaultPropertyIgnorals(type.getRawClass(), description.getClassInfo());
        if (ignorals != null) {
            ignored.addAll(ignorals.findIgnoredForDeserialization());
            shape.anyName = ignorals.getIgnoreUnknown();
        }
        AnnotatedMember anySetter = description.findAnySetterAccessor();
        if (anySetter != null) {
            JavaType value = anySetter instanceof AnnotatedMethod m
                    ? m.getParameterType(1)
                    : anySetter.getType().getContentType();
            if (value == null || (value.getRawClass() != JsonNode.class && value.getRawClass() != Object.class)) {
                beans.put(deserializer, FieldShape.OPAQUE);
                return FieldShape.OPAQUE;
            }
            shape.anyName = true;
        } else {
            ignored.addAll(description.getIgnoredPropertyNames());
        }
        Map<String, FieldShape> properties = new HashMap<>();
        addProperties(properties, deserializer.properties());
        addProperties(properties, deserializer.creatorProperties());
        shape.properties = properties;
        shape.ignored = ignored;
        return shape;
    }

    private void addProperties(Map<String, FieldShape> properties, Iterator<SettableBeanProperty> it)
            throws JsonMappingException {
        while (it.hasNext()) {
            SettableBeanProperty property = it.next();
            if (properties.containsKey(property.getName())) {
                continue;
            }
            FieldShape shape;
            if (property.getValueTypeDeserializer() != null
                    || property.getMetadata().getContentNulls() == Nulls.FAIL) {
                shape = FieldShape.OPAQUE;
            } else {
                shape = shape(
                        property.getType(), property.hasValueDeserializer() ? property.getValueDeserializer() : null);
                if (property.getNullValueProvider() instanceof NullsFailProvider
                        || property.getMetadata().getValueNulls() == Nulls.FAIL) {
                    shape = shape.nullChecked();
                }
            }
            properties.put(property.getName(), shape);
        }
    }

    /** {@code @JsonUnwrapped} properties take their fields from the parent object: not modelled. */
    private boolean unwraps(BeanDescription description) {
        AnnotationIntrospector introspector = config.getAnnotationIntrospector();
        for (BeanPropertyDefinition property : description.findProperties()) {
            for (AnnotatedMember member : new AnnotatedMember[] {
                property.getPrimaryMember(),
                property.getField(),
                property.getConstructorParameter(),
                property.getSetter()
            }) {
                if (member != null && introspector.findUnwrappingNameTransformer(member) != null) {
                    return true;
                }
            }
        }
        return false;
    }
}
