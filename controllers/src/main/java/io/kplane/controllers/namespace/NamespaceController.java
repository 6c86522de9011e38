package io.kplane.controllers.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.core.Namespace;
import io.kplane.api.json.Json;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.RawClient;
import io.kplane.client.controller.Controller;
import io.kplane.client.controller.Reconciler;
import io.kplane.client.controller.Result;
import io.kplane.client.informer.ResourceEventHandler;
import io.kplane.client.informer.SharedInformer;
import io.kplane.client.time.Clock;
import io.kplane.client.workqueue.RateLimitingQueue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namespace controller (upstream pkg/controller/namespace): for a namespace being deleted it
 * deletes every namespaced object in it (every served kind, found by discovery), sets the deletion
 * conditions, waits (by requeueing) while objects remain, e.g. held by finalizers or by a kubelet
 * still stopping a pod, and then removes its {@code kubernetes} finalizer through
 * {@code namespaces/{name}/finalize}, which ends the namespace. The API server refuses creates in a
 * Terminating namespace atomically with the commit, so once a pass finds the namespace empty it
 * stays empty.
 */
public final class NamespaceController implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(NamespaceController.class);
    public static final String NAME = "namespace-controller";
    static final String FINALIZER = "kubernetes";
    private static final String JSON = "application/json";

    private final SharedInformer<Namespace> namespaces;
    private final RawClient raw;
    private final Clock clock;
    private final Duration recheckInterval;
    private final NamespacedResourceDiscovery discovery;
    private final NamespaceContentDeleter deleter;
    private final RateLimitingQueue<String> queue;
    private final Controller controller;

    /**
     * @param recheckInterval how soon a namespace whose content is still going is looked at again
     *                        (objects waiting on finalizers or on a kubelet send no event to this controller)
     */
    public NamespaceController(
            SharedInformer<Namespace> namespaces,
            KubeClient client,
            Clock clock,
            int workers,
            Duration recheckInterval) {
        this.namespaces = namespaces;
        this.raw = client.raw();
        this.clock = clock;
        this.recheckInterval = recheckInterval;
        this.discovery = new NamespacedResourceDiscovery(raw);
        this.deleter = new NamespaceContentDeleter(raw);
        this.queue = RateLimitingQueue.create(clock, namespaces.lens(), "namespace");
        this.controller = Controller.builder()
                .name(NAME)
                .workers(workers)
                .queue(queue)
                .reconciler(this)
                .lens(namespaces.lens(), "namespace", "namespace")
                .build();
        namespaces.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Namespace ns, boolean isInInitialList) {
                enqueueIfDeleting(ns);
            }

            @Override
            public void onUpdate(Namespace oldNs, Namespace newNs) {
                enqueueIfDeleting(newNs);
            }
        });
    }

    private void enqueueIfDeleting(Namespace ns) {
        if (ns.metadata() != null && ns.metadata().isBeingDeleted()) {
            queue.add(ns.metadata().name());
        }
    }

    public void start(Duration syncTimeout) throws InterruptedException {
        if (!namespaces.waitForSync(syncTimeout)) {
            throw new IllegalStateException("namespace cache of " + NAME + " did not sync within " + syncTimeout);
        }
        controller.start();
    }

    /** Starts the workers; the caller has waited for the informer's cache. */
    public void startWorkers() {
        controller.start();
    }

    public void stop(Duration timeout) throws InterruptedException {
        controller.stop(timeout);
    }

    @Override
    public Result reconcile(String name) {
        Optional<ObjectNode> live = get(name);
        if (live.isEmpty() || !live.get().path("metadata").hasNonNull("deletionTimestamp")) {
            return Result.done(); // gone, or not being deleted (the cache was behind): nothing to do
        }
        ObjectNode ns = live.get();
        if (!specFinalizers(ns).contains(FINALIZER)) {
            return deleteIfFinalized(name, ns);
        }
        NamespaceConditions conditions = new NamespaceConditions();
        NamespacedResourceDiscovery.Result served = discovery.discover();
        if (!served.failures().isEmpty()) {
            conditions.discoveryFailed(served.failures());
        }
        NamespaceContentDeleter.Totals totals = deleter.deleteAll(name, served.resources());
        conditions.contents(totals);
        if (conditions.applyTo(ns, clock.now())) {
            ns = putJson("/api/v1/namespaces/" + name + "/status", ns).orElse(null);
            if (ns == null) {
                return Result.done();
            }
        }
        if (totals.contentRemains() || !served.failures().isEmpty()) {
            log.info(
                    "namespace {}: content remains {} (finalizers {}, errors {}); checking again in {} ms",
                    name,
                    totals.remainingByResource(),
                    totals.remainingByFinalizer(),
                    totals.deleteErrors().size(),
                    recheckInterval.toMillis());
            return Result.requeueAfter(recheckInterval);
        }
        return finalizeNamespace(name, ns);
    }

    /** Removes this controller's finalizer; an emptied namespace is removed by the API server. */
    private Result finalizeNamespace(String name, ObjectNode ns) {
        ObjectNode finalized = ns.deepCopy();
        ObjectNode spec = finalized.get("spec") instanceof ObjectNode o ? o : finalized.putObject("spec");
        ArrayNode kept = spec.putArray("finalizers");
        specFinalizers(ns).stream().filter(f -> !f.equals(FINALIZER)).forEach(kept::add);
        Optional<ObjectNode> after = putJson("/api/v1/namespaces/" + name + "/finalize", finalized);
        log.info("namespace {}: content removed, finalizer {} removed", name, FINALIZER);
        Optional<ObjectNode> still = after.isEmpty() ? Optional.empty() : get(name);
        return still.map(n -> deleteIfFinalized(name, n)).orElse(Result.done());
    }

    /**
     * Once {@code spec.finalizers} is empty the namespace is deleted as upstream's controller does it
     * (a DELETE with the uid as precondition); other finalizers are someone else's to remove.
     */
    private Result deleteIfFinalized(String name, ObjectNode ns) {
        if (!specFinalizers(ns).isEmpty()) {
            return Result.done();
        }
        String uid = ns.path("metadata").path("uid").asText();
        byte[] options = ("{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"preconditions\":{\"uid\":\"" + uid
                        + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
        try {
            raw.request("DELETE", "/api/v1/namespaces/" + name, Map.of(), options, JSON, JSON);
        } catch (ApiException e) {
            if (!e.isNotFound() && !e.isConflict()) {
                throw e;
            }
        }
        return Result.done();
    }

    private static java.util.List<String> specFinalizers(JsonNode ns) {
        java.util.List<String> result = new java.util.ArrayList<>();
        ns.path("spec").path("finalizers").forEach(f -> result.add(f.asText()));
        return result;
    }

    private Optional<ObjectNode> get(String name) {
        try {
            return Optional.of(parse(raw.request("GET", "/api/v1/namespaces/" + name, Map.of(), null, null, JSON)
                    .body()));
        } catch (ApiException e) {
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** PUT of the whole namespace (with its resourceVersion: a concurrent change fails and is retried). */
    private Optional<ObjectNode> putJson(String path, ObjectNode body) {
        try {
            return Optional.of(
                    parse(raw.request("PUT", path, Map.of(), Json.mapper().writeValueAsBytes(body), JSON, JSON)
                            .body()));
        } catch (ApiException e) {
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode parse(byte[] body) {
        try {
            return (ObjectNode) Json.mapper().readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException("unreadable namespace: " + e.getMessage(), e);
        }
    }
}
