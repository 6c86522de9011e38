package io.kplane.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.clock.Clock;
import io.kplane.api.json.Json;
import io.kplane.apiserver.clock.ClockEvents;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.registry.NamespaceStrategy;
import io.kplane.apiserver.registry.ResourceStrategy;
import io.kplane.apiserver.storage.ListOptions;
import io.kplane.apiserver.storage.ResourceService;
import io.kplane.apiserver.storage.WriteOptions;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What every cluster has before the API server serves its first request: the namespaces {@code default},
 * {@code kube-system} and {@code kube-node-lease}, a {@code default} ServiceAccount in every namespace
 * (also in namespaces created before kplane served ServiceAccounts, a database of an older version), and
 * the cluster Clock (real time).
 *
 * <p>Read first, then write only what is missing: the namespaces, the ServiceAccounts and the Clock are
 * read at once (one round trip of three concurrent reads), and the creates that are needed run at once
 * too. On an existing database, the common start, nothing is written. The start used to create each
 * object and take the 409 as "exists" — three namespace creates, a namespace list, one create per
 * ServiceAccount, the Clock's create, in three sequential steps — which put every one of those cold
 * write paths between "store open" and "listening" ({@code up}'s critical path, docs/performance.md).
 * A create that still meets a 409 (another API server on the same database created it in between) is
 * fine, as before.
 */
final class ClusterDefaults {
    static final List<String> INITIAL_NAMESPACES = List.of("default", "kube-system", "kube-node-lease");
    /** The name NamespaceStrategy gives the ServiceAccount it creates with each namespace. */
    private static final String DEFAULT_SERVICE_ACCOUNT = "default";

    private static final ListOptions EVERYTHING = new ListOptions(null, null, 0, null, null, null);
    /**
     * Only the {@code default} ServiceAccounts: a cluster's other ServiceAccounts (one per controller,
     * any number a user made) are not needed here, and each listed one is decoded and copied into the
     * list. (The store applies a field selector after its read; the saving is the decode and the list.)
     */
    private static final ListOptions DEFAULT_ACCOUNTS =
            new ListOptions(null, "metadata.name=" + DEFAULT_SERVICE_ACCOUNT, 0, null, null, null);

    private final ResourceService service;
    private final ClockEvents clockEvents;

    ClusterDefaults(ResourceService service, ClockEvents clockEvents) {
        this.service = service;
        this.clockEvents = clockEvents;
    }

    /** Completes once every default object exists. */
    Future<Void> ensure() {
        Future<ObjectNode> namespaces = service.list(ResourceTypes.NAMESPACES, null, EVERYTHING);
        Future<ObjectNode> accounts = service.list(ResourceTypes.SERVICEACCOUNTS, null, DEFAULT_ACCOUNTS);
        Future<Boolean> clockExists = service.get(ResourceTypes.CLOCKS, null, Clock.CLUSTER)
                .map(true)
                .recover(t -> t instanceof ApiError e && e.code() == 404
                        ? Future.succeededFuture(false)
                        : Future.failedFuture(t));
        return Future.all(namespaces, accounts, clockExists)
                .compose(v -> createMissing(
                        names(namespaces.result()),
                        namespacesWithDefaultAccount(accounts.result()),
                        clockExists.result()));
    }

    private Future<Void> createMissing(Set<String> namespaces, Set<String> withDefaultAccount, boolean clockExists) {
        List<Future<?>> creates = new ArrayList<>();
        for (String name : INITIAL_NAMESPACES) {
            if (!namespaces.contains(name)) {
                // a namespace's create writes its default ServiceAccount with it (NamespaceStrategy's companion)
                creates.add(createNamespace(name));
            }
        }
        List<ResourceStrategy.Companion> accounts = new ArrayList<>();
        for (String ns : namespaces) {
            if (!withDefaultAccount.contains(ns)) {
                accounts.add(NamespaceStrategy.defaultServiceAccount(ns));
            }
        }
        if (!accounts.isEmpty()) {
            creates.add(service.createCompanions(accounts));
        }
        if (!clockExists) {
            creates.add(clockEvents.ensureClock());
        }
        return Future.all(creates).mapEmpty();
    }

    private Future<Void> createNamespace(String name) {
        ObjectNode ns = Json.mapper().createObjectNode();
        ns.putObject("metadata").put("name", name);
        return service.create(ResourceTypes.NAMESPACES, null, ns, WriteOptions.defaults())
                .<Void>mapEmpty()
                .recover(t ->
                        t instanceof ApiError e && e.code() == 409 ? Future.succeededFuture() : Future.failedFuture(t));
    }

    private static Set<String> names(ObjectNode list) {
        Set<String> names = new LinkedHashSet<>();
        list.withArray("items")
                .forEach(item -> names.add(item.path("metadata").path("name").asText()));
        return names;
    }

    /** The namespaces of {@code list}'s items: listed with {@link #DEFAULT_ACCOUNTS}, all named {@code default}. */
    private static Set<String> namespacesWithDefaultAccount(ObjectNode list) {
        Set<String> namespaces = new HashSet<>();
        for (JsonNode sa : list.withArray("items")) {
            namespaces.add(sa.path("metadata").path("namespace").asText());
        }
        return namespaces;
    }
}
