package io.kplane.controllers.gc;

import io.kplane.api.ResourceType;
import io.kplane.api.meta.Finalizers;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.OwnerReference;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The ownerReferences graph of every watched object, keyed by uid (Kubernetes' GraphBuilder
 * uidToNode, without virtual nodes: owners that were never observed are looked up live).
 * Thread-safe; informer handler threads write it, garbage-collector workers read it.
 */
public final class OwnerGraph {
    public static final String FOREGROUND_FINALIZER = Finalizers.FOREGROUND_DELETION;
    public static final String ORPHAN_FINALIZER = Finalizers.ORPHAN;

    /** What the graph knows about one object. */
    public record Node(
            ResourceType type,
            String namespace,
            String name,
            String uid,
            List<OwnerReference> owners,
            boolean beingDeleted,
            List<String> finalizers) {
        public boolean deletingDependents() {
            return beingDeleted && finalizers.contains(FOREGROUND_FINALIZER);
        }

        public boolean orphaningDependents() {
            return beingDeleted && finalizers.contains(ORPHAN_FINALIZER);
        }

        /** The reference from this node to {@code ownerUid}, or null. */
        public OwnerReference ownerRef(String ownerUid) {
            for (OwnerReference ref : owners) {
                if (Objects.equals(ref.uid(), ownerUid)) {
                    return ref;
                }
            }
            return null;
        }

        public String describe() {
            return type.resource() + " " + (namespace == null || namespace.isEmpty() ? "" : namespace + "/") + name;
        }

        public static Node of(ResourceType type, KubeObject obj) {
            ObjectMeta m = obj.metadata();
            return new Node(
                    type,
                    m.namespace(),
                    m.name(),
                    m.uid(),
                    List.copyOf(m.ownerReferencesOrEmpty()),
                    m.isBeingDeleted(),
                    List.copyOf(m.finalizersOrEmpty()));
        }
    }

    private final Map<String, Node> nodes = new HashMap<>();
    private final Map<String, Set<String>> dependents = new HashMap<>();

    /** Records {@code obj}; returns the node it replaced, or null. */
    public synchronized Node upsert(ResourceType type, KubeObject obj) {
        Node node = Node.of(type, obj);
        Node old = nodes.put(node.uid(), node);
        if (old != null) {
            unlink(old);
        }
        for (OwnerReference ref : node.owners()) {
            dependents.computeIfAbsent(ref.uid(), k -> new HashSet<>()).add(node.uid());
        }
        return old;
    }

    /** Forgets the object; returns its last node, or null. */
    public synchronized Node remove(String uid) {
        Node old = nodes.remove(uid);
        if (old != null) {
            unlink(old);
        }
        return old;
    }

    private void unlink(Node node) {
        for (OwnerReference ref : node.owners()) {
            Set<String> set = dependents.get(ref.uid());
            if (set != null) {
                set.remove(node.uid());
                if (set.isEmpty()) {
                    dependents.remove(ref.uid());
                }
            }
        }
    }

    public synchronized Node get(String uid) {
        return nodes.get(uid);
    }

    /** The observed objects that list {@code ownerUid} among their owners. */
    public synchronized List<Node> dependentsOf(String ownerUid) {
        Set<String> uids = dependents.get(ownerUid);
        if (uids == null) {
            return List.of();
        }
        return uids.stream().map(nodes::get).filter(Objects::nonNull).toList();
    }

    /** Dependents whose reference to the owner has blockOwnerDeletion: a foreground delete waits for these. */
    public synchronized List<Node> blockingDependentsOf(String ownerUid) {
        return dependentsOf(ownerUid).stream()
                .filter(d -> {
                    OwnerReference ref = d.ownerRef(ownerUid);
                    return ref != null && Boolean.TRUE.equals(ref.blockOwnerDeletion());
                })
                .toList();
    }

    public synchronized int size() {
        return nodes.size();
    }
}
