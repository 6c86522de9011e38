package io.kplane.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.api.meta.KubeObject;
import io.kplane.apiserver.storage.EmptyStructs;
import io.kplane.apiserver.storage.Trees;

/**
 * What create's admission made of an object. After the standard rules it is the typed record they
 * defaulted and validated, and the store writes that record's JSON directly ({@code StoredForm}):
 * the record is never turned back into a tree unless someone asks ({@link #tree()}: a dry run, a
 * non-standard admission step). Otherwise, e.g. after a custom {@link Admission}, it is a tree.
 */
public final class AdmittedObject {
    private final KubeObject typed;
    private ObjectNode tree;

    private AdmittedObject(KubeObject typed, ObjectNode tree) {
        this.typed = typed;
        this.tree = tree;
    }

    /** The record the standard rules produced; the tree is derived from it on demand. */
    public static AdmittedObject typed(KubeObject typed) {
        return new AdmittedObject(typed, null);
    }

    /** An admitted tree (its empty structs are filled here, as for every admitted object). */
    public static AdmittedObject tree(ObjectNode tree) {
        return new AdmittedObject(null, EmptyStructs.fill(tree));
    }

    /** The typed record, or null when admission produced a tree. */
    public KubeObject typedOrNull() {
        return typed;
    }

    /**
     * The object as a tree, with its kind's empty structs filled. For a typed object it is built
     * once from the record; changing it does not change what is stored (change the record instead).
     */
    public ObjectNode tree() {
        if (tree == null) {
            tree = EmptyStructs.fill(Json.toTree(typed));
        }
        return tree;
    }

    public String name() {
        return typed != null ? typed.name() : Trees.name(tree);
    }
}
