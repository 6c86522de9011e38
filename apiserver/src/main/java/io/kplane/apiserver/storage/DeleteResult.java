package io.kplane.apiserver.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The outcome of a delete. {@code removed}: the object is gone ({@code object} is its last state);
 * otherwise it remains with a deletionTimestamp until finalizers or the kubelet finish it, and
 * {@code accepted} tells whether the answer is 202 (the object stays and the request set the deprecated
 * {@code orphanDependents=false}, as kube-apiserver's handlers/delete.go) or 200.
 */
public record DeleteResult(ObjectNode object, boolean removed, boolean accepted) {}
