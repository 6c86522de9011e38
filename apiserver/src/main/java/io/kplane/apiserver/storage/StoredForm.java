package io.kplane.apiserver.storage;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.NullNode;
import io.kplane.api.json.Json;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.store.EncodedObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A typed object's JSON in the form the store keeps ({@link EncodedObject}): serialised once from
 * the record, without {@code metadata.resourceVersion}, with the kind's empty structs appended as
 * {@link EmptyStructs#fill} appends them to a tree, and the end of {@code metadata} marked. The text
 * equals what serialising {@code EmptyStructs.fill(Json.toTree(object))} gave (same mapper, same field
 * order), without building that tree: {@code StoredFormTest} checks it for a sample of every kind.
 */
public final class StoredForm {
    private static final Method[] NONE = new Method[0];
    /** Per record class and kind: the kind's struct fields' accessors, or {@link #NONE}. */
    private static final Map<TypeAndKind, Method[]> STRUCT_ACCESSORS = new ConcurrentHashMap<>();

    private StoredForm() {}

    /**
     * The stored form, or null when the object needs the tree path: no metadata, or a struct field
     * written as {@code null} (a {@code JsonNode} field holding JSON null, which the tree path
     * replaces in place).
     */
    public static EncodedObject encode(KubeObject object) {
        ObjectMeta meta = object.metadata();
        if (meta == null) {
            return null;
        }
        KubeObject unversioned =
                meta.resourceVersion() == null ? object : object.withMetadata(meta.withResourceVersion(null));
        String text;
        try {
            text = Json.mapper().writeValueAsString(unversioned);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> structs = EmptyStructs.fieldsOf(object.kind());
        Method[] accessors = structAccessors(object.getClass(), object.kind(), structs);
        int present = 0;
        if (accessors != null) {
            // the mapper writes a component unless it is null: the record says which structs the text has
            for (int i = 0; i < accessors.length; i++) {
                Object value = read(accessors[i], object);
                if (value instanceof NullNode) {
                    return null;
                }
                if (value != null) {
                    present |= 1 << i;
                }
            }
        }
        int metadataEnd = -1;
        // one pass over the top level up to metadata's end (or, for a type whose struct fields are not
        // record components, to the end); nested values are skipped by the tokenizer, not built
        try (JsonParser p = Json.mapper().getFactory().createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (metadataEnd < 0 && value == JsonToken.START_OBJECT && "metadata".equals(field)) {
                    p.skipChildren();
                    metadataEnd = (int) p.currentTokenLocation().getCharOffset();
                    if (accessors != null) {
                        break;
                    }
                    continue;
                }
                int struct = accessors == null ? structs.indexOf(field) : -1;
                if (struct >= 0) {
                    if (value == JsonToken.VALUE_NULL) {
                        return null;
                    }
                    present |= 1 << struct;
                }
                p.skipChildren();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (metadataEnd < 0) {
            return null;
        }
        return new EncodedObject(withEmptyStructs(text, structs, present), metadataEnd);
    }

    /** The record accessors of the kind's struct fields, in order; null when one is not a record component. */
    private static Method[] structAccessors(Class<?> type, String kind, List<String> structs) {
        Method[] accessors = STRUCT_ACCESSORS.computeIfAbsent(new TypeAndKind(type, kind), k -> find(type, structs));
        return accessors == NONE ? null : accessors;
    }

    private static Method[] find(Class<?> type, List<String> structs) {
        if (!type.isRecord()) {
            return NONE;
        }
        Method[] accessors = new Method[structs.size()];
        for (int i = 0; i < accessors.length; i++) {
            for (RecordComponent component : type.getRecordComponents()) {
                if (component.getName().equals(structs.get(i))) {
                    accessors[i] = component.getAccessor();
                }
            }
            if (accessors[i] == null) {
                return NONE;
            }
        }
        return accessors;
    }

    private record TypeAndKind(Class<?> type, String kind) {}

    private static Object read(Method accessor, Object object) {
        try {
            return accessor.invoke(object);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + accessor, e);
        }
    }

    /** {@code text} with {@code "field":{}} appended for each struct not present, in the kind's order. */
    private static String withEmptyStructs(String text, List<String> structs, int present) {
        if (present == (1 << structs.size()) - 1) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 24).append(text, 0, text.length() - 1);
        for (int i = 0; i < structs.size(); i++) {
            if ((present & (1 << i)) == 0) {
                // never the first field: metadata precedes
                out.append(",\"").append(structs.get(i)).append("\":{}");
            }
        }
        return out.append('}').toString();
    }
}
