package io.kplane.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.json.Json;
import io.kplane.api.meta.KubeObject;
import io.kplane.apiserver.storage.EmptyStructs;
import io.kplane.apiserver.storage.StoredForm;
import io.kplane.store.EncodedObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The create path writes an admitted record's JSON directly ({@link StoredForm}); before, it turned
 * the record into a tree, filled the empty structs and serialised the tree. Both must give the same
 * text, byte for byte, and the same splice with a revision: checked on a realistic object of every
 * kind, and on each with its struct fields (spec, status, ...) left out one by one and all together.
 */
class StoredFormTest {
    static final List<ResourceType> TYPES = ResourceTypes.ALL;

    @ParameterizedTest
    @FieldSource("TYPES")
    void theRecordsStoredFormIsWhatTheTreePathWrote(ResourceType type) throws Exception {
        for (ObjectNode body : variants(type)) {
            KubeObject typed = Json.mapper().treeToValue(body, type.javaType());
            ObjectNode tree = EmptyStructs.fill(Json.toTree(typed));
            ((ObjectNode) tree.get("metadata")).remove("resourceVersion");
            String treeText = Json.mapper().writeValueAsString(tree);

            EncodedObject encoded = StoredForm.encode(typed);

            assertThat(encoded).as("%s %s", type.kind(), body).isNotNull();
            assertThat(encoded.stored()).as(type.kind()).isEqualTo(treeText);
            ((ObjectNode) tree.get("metadata")).put("resourceVersion", "4711");
            assertThat(encoded.json(4711)).isEqualTo(Json.mapper().writeValueAsString(tree));
        }
    }

    @ParameterizedTest
    @FieldSource("TYPES")
    void anObjectWithoutMetadataIsLeftToTheTreePath(ResourceType type) throws Exception {
        ObjectNode body = SampleObjects.of(type);
        body.remove("metadata");
        KubeObject typed = Json.mapper().treeToValue(body, type.javaType());

        assertThat(StoredForm.encode(typed)).isNull();
    }

    @ParameterizedTest
    @FieldSource("TYPES")
    void aStructSentAsNullIsStoredAsTheTreePathStoresIt(ResourceType type) throws Exception {
        for (String field : EmptyStructs.fieldsOf(type.kind())) {
            ObjectNode body = SampleObjects.of(type);
            body.putNull(field);
            KubeObject typed = Json.mapper().treeToValue(body, type.javaType());
            ObjectNode tree = EmptyStructs.fill(Json.toTree(typed));
            ((ObjectNode) tree.get("metadata")).remove("resourceVersion");

            EncodedObject encoded = StoredForm.encode(typed);

            // null: a JsonNode field kept JSON null, which only the tree path replaces in place
            if (encoded != null) {
                assertThat(encoded.stored())
                        .as(type.kind() + "." + field)
                        .isEqualTo(Json.mapper().writeValueAsString(tree));
            }
            assertThat(tree.get(field).isObject()).isTrue();
        }
    }

    /** The sample, and the sample without each of its kind's struct fields, and without all of them. */
    private static List<ObjectNode> variants(ResourceType type) {
        List<ObjectNode> variants = new ArrayList<>();
        ObjectNode sample = SampleObjects.of(type);
        variants.add(sample);
        List<String> structs = EmptyStructs.fieldsOf(type.kind());
        ObjectNode none = sample.deepCopy();
        for (String field : structs) {
            ObjectNode without = sample.deepCopy();
            without.remove(field);
            variants.add(without);
            none.remove(field);
        }
        if (!structs.isEmpty()) {
            variants.add(none);
        }
        return variants;
    }
}
