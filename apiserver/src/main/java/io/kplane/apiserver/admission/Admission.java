package io.kplane.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.apiserver.errors.ApiError;

/**
 * Defaulting and validation of an object about to be written. Implementations fill in defaults
 * and throw {@link ApiError} (422 Invalid with one cause per bad field) when the object is invalid.
 */
public interface Admission {

    /** {@code old} is null on create. Returns the object to store (defaults applied). */
    ObjectNode admit(ResourceType type, ObjectNode object, ObjectNode old) throws ApiError;

    /**
     * {@link #admit} of a new object, in the form the create path writes: the standard rules answer
     * their typed record, so the store encodes it once instead of via a tree. Default: {@link #admit}'s tree.
     */
    default AdmittedObject admitCreate(ResourceType type, ObjectNode object) throws ApiError {
        return AdmittedObject.tree(admit(type, object, null));
    }

    /** Checks a write to the {@code status} subresource; returns the object to store. */
    default ObjectNode admitStatus(ResourceType type, ObjectNode object, ObjectNode old) throws ApiError {
        return object;
    }
}
