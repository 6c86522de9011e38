package io.kplane.controllers.gc;

import static io.kplane.controllers.gc.OwnerGraph.FOREGROUND_FINALIZER;
import static io.kplane.controllers.gc.OwnerGraph.ORPHAN_FINALIZER;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.DeletionPropagation;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.OwnerReference;
import io.kplane.api.patch.PatchType;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.ResourceClient;
import io.kplane.client.controller.Controller;
import io.kplane.client.controller.Reconciler;
import io.kplane.client.controller.Result;
import io.kplane.client.informer.ResourceEventHandler;
import io.kplane.client.informer.SharedInformer;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.lens.SyncScope;
import io.kplane.client.time.Clock;
import io.kplane.client.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The garbage collector: watches every resource in the registry, keeps the {@link OwnerGraph}, and
 * works a queue of object uids (Kubernetes' attemptToDelete and attemptToOrphan in one):
 * <ul>
 *   <li>an object whose owners are all gone (or were replaced by a new object with the same name) is
 *       deleted, with the propagation its own finalizers ask for (background by default);</li>
 *   <li>an owner being deleted in the foreground ({@code foregroundDeletion} finalizer) gets its
 *       dependents deleted and loses the finalizer once no blocking dependent is left;</li>
 *   <li>an owner being deleted with {@code orphan} has its reference removed from every dependent,
 *       then loses the finalizer.</li>
 * </ul>
 * Every decision re-reads the objects it acts on from the API server: caches only say where to look.
 */
public final class GarbageCollector implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(GarbageCollector.class);
    public static final String NAME = "garbage-collector";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final KubeClient client;
    private final OwnerGraph graph = new OwnerGraph();
    private final List<SharedInformer<? extends KubeObject>> informers = new ArrayList<>();
    private final List<ResourceType> watchedTypes = new ArrayList<>();
    private final RateLimitingQueue<String> queue;
    private final Controller controller;

    /** Watches every resource type of the registry except Events (which nothing owns in practice). */
    public GarbageCollector(KubeClient client, SharedInformerFactory informerFactory, Clock clock, int workers) {
        this(
                client,
                informerFactory,
                clock,
                workers,
                ResourceTypes.ALL.stream()
                        .filter(t -> !t.equals(ResourceTypes.EVENTS))
                        .toList());
    }

    public GarbageCollector(
            KubeClient client,
            SharedInformerFactory informerFactory,
            Clock clock,
            int workers,
            List<ResourceType> types) {
        this.client = client;
        this.queue = RateLimitingQueue.create(clock, informerFactory.lens(), "garbage_collector_attempt_to_delete");
        this.controller = Controller.builder()
                .name(NAME)
                .workers(workers)
                .queue(queue)
                .reconciler(this)
                .lens(informerFactory.lens(), "garbagecollector", "garbage_collector_attempt_to_delete")
                .build();
        for (ResourceType type : types) {
            watch(informerFactory, type);
        }
    }

    private <T extends KubeObject> void watch(SharedInformerFactory factory, ResourceType type) {
        @SuppressWarnings("unchecked")
        Class<T> javaType = (Class<T>) type.javaType();
        SharedInformer<T> informer = factory.informerFor(type, javaType);
        informer.addEventHandler(new GraphUpdater<>(type));
        informers.add(informer);
        watchedTypes.add(type);
    }

    public OwnerGraph graph() {
        return graph;
    }

    public void start(Duration syncTimeout) throws InterruptedException {
        for (SharedInformer<? extends KubeObject> informer : informers) {
            if (!informer.waitForSync(syncTimeout)) {
                throw new IllegalStateException("caches of " + NAME + " did not sync within " + syncTimeout);
            }
        }
        controller.start();
    }

    /** Starts the workers; the caller has waited for the informers' caches. */
    public void startWorkers() {
        controller.start();
    }

    public void stop(Duration timeout) throws InterruptedException {
        controller.stop(timeout);
    }

    /** Keeps the graph current and enqueues whatever a change may have unblocked. */
    private final class GraphUpdater<T extends KubeObject> implements ResourceEventHandler<T> {
        private final ResourceType type;

        GraphUpdater(ResourceType type) {
            this.type = type;
        }

        @Override
        public void onAdd(T obj, boolean isInInitialList) {
            changed(obj);
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
            changed(newObj);
        }

        private void changed(T obj) {
            if (obj.uid() == null) {
                return;
            }
            OwnerGraph.Node old = graph.upsert(type, obj);
            OwnerGraph.Node node = graph.get(obj.uid());
            if (node == null) {
                return;
            }
            if (!node.owners().isEmpty()
                    && (old == null || !old.owners().equals(node.owners()) || node.deletingDependents())) {
                queue.add(node.uid());
            }
            if (node.deletingDependents() || node.orphaningDependents()) {
                queue.add(node.uid());
                if (node.deletingDependents() && (old == null || !old.deletingDependents())) {
                    graph.dependentsOf(node.uid()).forEach(d -> queue.add(d.uid()));
                }
            }
        }

        @Override
        public void onDelete(T obj, boolean finalStateUnknown) {
            if (obj.uid() == null) {
                return;
            }
            OwnerGraph.Node gone = graph.remove(obj.uid());
            graph.dependentsOf(obj.uid()).forEach(d -> queue.add(d.uid()));
            List<OwnerReference> owners =
                    gone != null ? gone.owners() : obj.metadata().ownerReferencesOrEmpty();
            for (OwnerReference ref : owners) {
                OwnerGraph.Node owner = graph.get(ref.uid());
                if (owner != null && owner.beingDeleted()) {
                    queue.add(owner.uid()); // a foreground delete may be waiting for this dependent
                }
            }
        }
    }

    @Override
    public Result reconcile(String uid) {
        SyncScope lens = SyncScope.current();
        OwnerGraph.Node node = graph.get(uid);
        if (node == null) {
            lens.decided(GcDecision.NOTHING, "the object is no longer in the graph (deleted)");
            return Result.done();
        }
        if (lens.enabled()) {
            GcDecision.sawNode(lens, graph, node);
        }
        if (node.deletingDependents()) {
            return processDeletingDependents(node);
        }
        if (node.orphaningDependents()) {
            return orphanDependents(node);
        }
        if (node.beingDeleted() || node.owners().isEmpty()) {
            lens.decided(
                    GcDecision.NOTHING, node.beingDeleted() ? "being deleted, no dependents to process" : "no owners");
            return Result.done();
        }
        return attemptToDelete(node);
    }

    // --- dependents of deleted owners ------------------------------------------------------------

    private enum OwnerState {
        SOLID,
        DANGLING,
        WAITING_FOR_DEPENDENTS
    }

    private Result attemptToDelete(OwnerGraph.Node node) {
        SyncScope lens = SyncScope.current();
        if (allOwnersObservedAlive(node)) {
            // Cheap path (most objects, e.g. every pod at start-up): the watches show every owner with
            // the referenced uid and not being deleted. If one goes away, its delete event re-enqueues us.
            lens.decided(GcDecision.NOTHING, "every owner is present in the cache");
            return Result.done();
        }
        Optional<KubeObject> latest = live(node.type(), node.namespace(), node.name());
        if (latest.isEmpty() || !Objects.equals(latest.get().uid(), node.uid())) {
            lens.decided(GcDecision.NOTHING, "the object is gone or was replaced (read live)");
            return Result.done(); // gone or replaced; the watch will tell us
        }
        KubeObject item = latest.get();
        if (item.metadata().isBeingDeleted()) {
            lens.decided(GcDecision.NOTHING, "the object is already being deleted (read live)");
            return Result.done();
        }
        List<OwnerReference> solid = new ArrayList<>();
        List<OwnerReference> dangling = new ArrayList<>();
        List<OwnerReference> waiting = new ArrayList<>();
        for (OwnerReference ref : item.metadata().ownerReferencesOrEmpty()) {
            switch (ownerState(node, ref)) {
                case SOLID -> solid.add(ref);
                case DANGLING -> dangling.add(ref);
                case WAITING_FOR_DEPENDENTS -> waiting.add(ref);
            }
        }
        if (lens.enabled()) {
            lens.saw("ownersPresent", GcDecision.names(solid))
                    .saw("ownersAbsent", GcDecision.names(dangling))
                    .saw("ownersWaitingForDependents", GcDecision.names(waiting));
        }
        if (!solid.isEmpty()) {
            if (dangling.isEmpty() && waiting.isEmpty()) {
                lens.decided(GcDecision.NOTHING, "owner " + String.join(", ", GcDecision.names(solid)) + " exists");
                return Result.done();
            }
            lens.decided(
                    GcDecision.REMOVE_DANGLING_REFERENCES,
                    "owner " + String.join(", ", GcDecision.names(solid))
                            + " exists; references to owners going away are removed");
            // Another owner keeps it alive: just drop the references to the owners that are going away,
            // or a foreground-deleting owner would wait for it forever.
            List<OwnerReference> drop = new ArrayList<>(dangling);
            drop.addAll(waiting);
            removeOwnerReferences(
                    node.type(), item, drop.stream().map(OwnerReference::uid).toList());
            return Result.done();
        }
        String policy;
        if (!waiting.isEmpty() && !graph.dependentsOf(node.uid()).isEmpty()) {
            // Our owner waits for us and we have dependents: we must go in the foreground too. Unblock
            // our owner first so the two foreground deletions cannot wait on each other.
            unblockOwnerReferences(
                    node.type(), item, waiting.stream().map(OwnerReference::uid).toList());
            policy = DeletionPropagation.FOREGROUND;
        } else if (item.metadata().finalizersOrEmpty().contains(ORPHAN_FINALIZER)) {
            policy = DeletionPropagation.ORPHAN;
        } else if (item.metadata().finalizersOrEmpty().contains(FOREGROUND_FINALIZER)) {
            policy = DeletionPropagation.FOREGROUND;
        } else {
            policy = DeletionPropagation.BACKGROUND;
        }
        DeleteOptions options = new DeleteOptions(
                null, null, null, new DeleteOptions.Preconditions(node.uid(), null), policy, null, null);
        lens.decided(
                GcDecision.DELETE,
                "owners gone: " + String.join(", ", GcDecision.names(dangling.isEmpty() ? waiting : dangling))
                        + "; propagationPolicy " + policy);
        try {
            Optional<KubeObject> left = resource(node.type(), node.namespace()).delete(node.name(), options);
            lens.wrote(
                    "delete (" + policy + ")",
                    node.type().resource(),
                    GcDecision.key(node),
                    left.map(o -> o.metadata().resourceVersion()).orElse(null),
                    null);
            log.info(
                    "deleted {} (owners gone: {}), propagation {}",
                    node.describe(),
                    dangling.isEmpty()
                            ? waiting.stream().map(OwnerReference::name).toList()
                            : dangling.stream().map(OwnerReference::name).toList(),
                    policy);
        } catch (ApiException e) {
            lens.wrote("delete (" + policy + ")", node.type().resource(), GcDecision.key(node), null, e.getMessage());
            if (!e.isNotFound() && !e.isConflict()) {
                throw e;
            }
        }
        return Result.done();
    }

    private boolean allOwnersObservedAlive(OwnerGraph.Node node) {
        for (OwnerReference ref : node.owners()) {
            OwnerGraph.Node owner = graph.get(ref.uid());
            if (owner == null || owner.beingDeleted() || !owner.name().equals(ref.name())) {
                return false;
            }
        }
        return true;
    }

    /** Whether the owner a reference names still exists as that very object (same uid). */
    private OwnerState ownerState(OwnerGraph.Node dependent, OwnerReference ref) {
        Optional<ResourceType> type = ResourceTypes.byApiVersionAndKind(ref.apiVersion(), ref.kind());
        if (type.isEmpty()) {
            // A kind this server does not serve: we cannot tell whether the owner exists, and deleting
            // on a guess would destroy data. Kubernetes retries such references; we keep the object.
            log.debug(
                    "{}: owner {} {} has a kind this server does not serve; keeping the object",
                    dependent.describe(),
                    ref.kind(),
                    ref.name());
            return OwnerState.SOLID;
        }
        String namespace = type.get().namespaced() ? dependent.namespace() : null;
        Optional<KubeObject> owner = live(type.get(), namespace, ref.name());
        if (owner.isEmpty() || !Objects.equals(owner.get().uid(), ref.uid())) {
            return OwnerState.DANGLING;
        }
        if (owner.get().metadata().isBeingDeleted()
                && owner.get().metadata().finalizersOrEmpty().contains(FOREGROUND_FINALIZER)) {
            return OwnerState.WAITING_FOR_DEPENDENTS;
        }
        return OwnerState.SOLID;
    }

    // --- foreground deletion ------------------------------------------------------------------

    private Result processDeletingDependents(OwnerGraph.Node owner) {
        List<OwnerGraph.Node> blocking = graph.blockingDependentsOf(owner.uid());
        if (blocking.isEmpty()) {
            // The informers may not have delivered a dependent created just before the delete: ask the
            // server before letting the owner go.
            List<OwnerGraph.Node> unseen = liveDependents(owner).stream()
                    .filter(d -> {
                        OwnerReference ref = d.ownerRef(owner.uid());
                        return ref != null && Boolean.TRUE.equals(ref.blockOwnerDeletion());
                    })
                    .toList();
            if (unseen.isEmpty()) {
                SyncScope.current()
                        .decided(
                                GcDecision.RELEASE_OWNER,
                                "no dependent blocks the owner's deletion: finalizer " + FOREGROUND_FINALIZER
                                        + " removed");
                removeFinalizer(owner, FOREGROUND_FINALIZER);
                return Result.done();
            }
            SyncScope.current()
                    .saw("blockingDependents", unseen.size())
                    .decided(
                            GcDecision.WAIT_FOR_DEPENDENTS,
                            unseen.size() + " blocking dependent(s) not in the cache yet, read live");
            unseen.forEach(d -> queue.add(d.uid()));
            return Result.requeueAfter(Duration.ofSeconds(1));
        }
        for (OwnerGraph.Node dependent : graph.dependentsOf(owner.uid())) {
            if (!dependent.beingDeleted() || dependent.deletingDependents()) {
                queue.add(dependent.uid());
            }
        }
        log.debug("{} waits for {} blocking dependents", owner.describe(), blocking.size());
        SyncScope.current()
                .saw("blockingDependents", blocking.size())
                .decided(
                        GcDecision.WAIT_FOR_DEPENDENTS,
                        "foreground deletion waits for " + blocking.size() + " dependent(s) with blockOwnerDeletion: "
                                + String.join(
                                        ", ",
                                        blocking.stream()
                                                .limit(5)
                                                .map(OwnerGraph.Node::describe)
                                                .toList())
                                + (blocking.size() > 5 ? ", ..." : ""));
        return Result.done(); // re-enqueued when a dependent disappears
    }

    // --- orphaning ----------------------------------------------------------------------------

    private Result orphanDependents(OwnerGraph.Node owner) {
        // Live, not from the graph: a dependent the informers have not delivered yet must be orphaned
        // too, or it would be collected later as the dependent of a missing owner.
        List<OwnerGraph.Node> dependents = liveDependents(owner);
        SyncScope.current()
                .saw("dependentsLive", dependents.size())
                .decided(
                        GcDecision.ORPHAN,
                        "propagationPolicy Orphan: the owner reference is removed from " + dependents.size()
                                + " dependent(s), then finalizer " + ORPHAN_FINALIZER);
        for (OwnerGraph.Node dependent : dependents) {
            Optional<KubeObject> latest = live(dependent.type(), dependent.namespace(), dependent.name());
            if (latest.isPresent() && Objects.equals(latest.get().uid(), dependent.uid())) {
                removeOwnerReferences(dependent.type(), latest.get(), List.of(owner.uid()));
            }
        }
        removeFinalizer(owner, ORPHAN_FINALIZER);
        log.info("orphaned the dependents of {}", owner.describe());
        return Result.done();
    }

    /** Objects of the watched types that list {@code owner} among their owners, read from the server. */
    private List<OwnerGraph.Node> liveDependents(OwnerGraph.Node owner) {
        List<OwnerGraph.Node> found = new ArrayList<>();
        for (ResourceType type : watchedTypes) {
            if (!type.namespaced() && owner.type().namespaced()) {
                continue; // a cluster-scoped object cannot be owned by a namespaced one
            }
            ResourceClient<KubeObject> resource = resource(type, owner.type().namespaced() ? owner.namespace() : null);
            if (!owner.type().namespaced() && type.namespaced()) {
                resource = resource.inAnyNamespace();
            }
            for (KubeObject obj : resource.list()) {
                if (obj.metadata().ownerReferencesOrEmpty().stream()
                        .anyMatch(r -> Objects.equals(r.uid(), owner.uid()))) {
                    found.add(OwnerGraph.Node.of(type, obj));
                }
            }
        }
        return found;
    }

    // --- API writes -----------------------------------------------------------------------------

    /** Removes {@code finalizer} with a JSON patch guarded by the resourceVersion just read. */
    private void removeFinalizer(OwnerGraph.Node node, String finalizer) {
        Optional<KubeObject> latest = live(node.type(), node.namespace(), node.name());
        if (latest.isEmpty()
                || !Objects.equals(latest.get().uid(), node.uid())
                || !latest.get().metadata().finalizersOrEmpty().contains(finalizer)) {
            return;
        }
        ArrayNode remaining = JSON.arrayNode();
        latest.get().metadata().finalizersOrEmpty().stream()
                .filter(f -> !f.equals(finalizer))
                .forEach(remaining::add);
        ArrayNode patch = JSON.arrayNode();
        patch.add(op("test", "/metadata/resourceVersion")
                .put("value", latest.get().metadata().resourceVersion()));
        patch.add(op("replace", "/metadata/finalizers").set("value", remaining));
        patch("patch (remove finalizer " + finalizer + ")", node.type(), node.namespace(), node.name(), patch);
        log.info("removed finalizer {} from {}", finalizer, node.describe());
    }

    /** Removes the references to {@code ownerUids}, guarded by tests on each reference's uid. */
    private void removeOwnerReferences(ResourceType type, KubeObject item, List<String> ownerUids) {
        List<OwnerReference> refs = item.metadata().ownerReferencesOrEmpty();
        ArrayNode patch = JSON.arrayNode();
        patch.add(op("test", "/metadata/uid").put("value", item.uid()));
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < refs.size(); i++) {
            if (ownerUids.contains(refs.get(i).uid())) {
                patch.add(op("test", "/metadata/ownerReferences/" + i + "/uid")
                        .put("value", refs.get(i).uid()));
                indexes.add(i);
            }
        }
        if (indexes.isEmpty()) {
            return;
        }
        for (int j = indexes.size() - 1; j >= 0; j--) {
            patch.add(op("remove", "/metadata/ownerReferences/" + indexes.get(j)));
        }
        patch("patch (remove ownerReferences)", type, item.namespace(), item.name(), patch);
        log.info("removed owner references {} from {} {}", ownerUids, type.resource(), item.key());
    }

    private void unblockOwnerReferences(ResourceType type, KubeObject item, List<String> ownerUids) {
        List<OwnerReference> refs = item.metadata().ownerReferencesOrEmpty();
        ArrayNode patch = JSON.arrayNode();
        patch.add(op("test", "/metadata/uid").put("value", item.uid()));
        for (int i = 0; i < refs.size(); i++) {
            if (ownerUids.contains(refs.get(i).uid())) {
                patch.add(op("test", "/metadata/ownerReferences/" + i + "/uid")
                        .put("value", refs.get(i).uid()));
                patch.add(op("add", "/metadata/ownerReferences/" + i + "/blockOwnerDeletion")
                        .put("value", false));
            }
        }
        patch("patch (blockOwnerDeletion false)", type, item.namespace(), item.name(), patch);
    }

    private static ObjectNode op(String op, String path) {
        ObjectNode node = JSON.objectNode();
        node.put("op", op);
        node.put("path", path);
        return node;
    }

    private void patch(String what, ResourceType type, String namespace, String name, ArrayNode patch) {
        String key = namespace == null || !type.namespaced() ? name : namespace + "/" + name;
        try {
            KubeObject patched = resource(type, namespace).patch(name, PatchType.JSON, patch.toString());
            SyncScope.current()
                    .wrote(
                            what,
                            type.resource(),
                            key,
                            patched == null ? null : patched.metadata().resourceVersion(),
                            null);
        } catch (ApiException e) {
            SyncScope.current().wrote(what, type.resource(), key, null, e.getMessage());
            if (!e.isNotFound()) {
                throw e; // a failed test (changed meanwhile) retries with back-off and fresh reads
            }
        }
    }

    private Optional<KubeObject> live(ResourceType type, String namespace, String name) {
        return resource(type, namespace).find(name);
    }

    @SuppressWarnings("unchecked")
    private ResourceClient<KubeObject> resource(ResourceType type, String namespace) {
        ResourceClient<KubeObject> resource = client.resource(type, (Class<KubeObject>) type.javaType());
        return type.namespaced() && namespace != null ? resource.inNamespace(namespace) : resource;
    }
}
