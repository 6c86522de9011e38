package io.kplane.controllers.gc;

import io.kplane.api.meta.OwnerReference;
import io.kplane.client.lens.SyncScope;
import java.util.List;

/**
 * The garbage collector's words in its lens sync records (docs/lens.md), after upstream's
 * attemptToDeleteItem / processDeletingDependentsItem / orphanDependents outcomes, and the "saw"
 * summary of one graph node: its owners as the graph knows them and its dependents.
 */
final class GcDecision {
    /** The object's owners are gone: it is deleted (with the propagation its finalizers ask for). */
    static final String DELETE = "delete";
    /** The owner is being deleted with propagationPolicy Orphan: its dependents lose the reference. */
    static final String ORPHAN = "orphan";
    /** A foreground-deleting owner waits for dependents that block its deletion. */
    static final String WAIT_FOR_DEPENDENTS = "wait-for-dependents";
    /** A foreground-deleting owner has no blocking dependent left: its foregroundDeletion finalizer goes. */
    static final String RELEASE_OWNER = "release-owner";
    /** Another owner keeps the object: only the references to owners going away are removed. */
    static final String REMOVE_DANGLING_REFERENCES = "remove-dangling-references";
    /** Nothing to do (owners present, no owners, already being deleted, gone). */
    static final String NOTHING = "nothing";

    private GcDecision() {}

    static String key(OwnerGraph.Node node) {
        return node.namespace() == null || node.namespace().isEmpty()
                ? node.name()
                : node.namespace() + "/" + node.name();
    }

    static List<String> names(List<OwnerReference> refs) {
        return refs.stream().map(r -> r.kind() + "/" + r.name()).toList();
    }

    /**
     * Files the record under the object's own key (the queue holds uids) and notes what the graph shows:
     * each owner present or absent in the cache, the number of dependents, deletion state.
     */
    static void sawNode(SyncScope lens, OwnerGraph graph, OwnerGraph.Node node) {
        lens.objectKey(key(node)).resource(node.type().resource()).object(node.uid(), null);
        if (!node.owners().isEmpty()) {
            List<String> present = node.owners().stream()
                    .filter(r -> alive(graph, r))
                    .map(r -> r.kind() + "/" + r.name())
                    .toList();
            List<String> absent = node.owners().stream()
                    .filter(r -> !alive(graph, r))
                    .map(r -> r.kind() + "/" + r.name())
                    .toList();
            lens.saw("owners", names(node.owners()));
            if (!absent.isEmpty()) {
                lens.saw("ownersAbsentInCache", absent);
            } else {
                lens.saw("ownersPresentInCache", present);
            }
        }
        lens.saw("dependents", graph.dependentsOf(node.uid()).size());
        if (node.beingDeleted()) {
            lens.saw("beingDeleted", true).saw("finalizers", node.finalizers());
        }
    }

    /** The owner is in the cache with the referenced uid and not being deleted. */
    private static boolean alive(OwnerGraph graph, OwnerReference ref) {
        OwnerGraph.Node owner = graph.get(ref.uid());
        return owner != null && !owner.beingDeleted() && owner.name().equals(ref.name());
    }
}
