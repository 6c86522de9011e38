package io.kplane.apiserver.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The outcome of a create, update or patch: the object as stored and whether it was created. */
public record WriteResult(ObjectNode object, boolean created) {
}
