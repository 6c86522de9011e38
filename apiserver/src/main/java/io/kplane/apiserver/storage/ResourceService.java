package io.kplane.apiserver.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.json.Json;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.DeletionPropagation;
import io.kplane.api.meta.Finalizers;
import io.kplane.api.patch.PatchType;
import io.kplane.apiserver.admission.Admission;
import io.kplane.apiserver.admission.AdmittedObject;
import io.kplane.apiserver.admission.UnknownFields;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.errors.Errors;
import io.kplane.apiserver.patch.PatchApplier;
import io.kplane.apiserver.registry.ResourceStrategies;
import io.kplane.apiserver.registry.ResourceStrategy;
import io.kplane.apiserver.selector.Selectors;
import io.kplane.store.EncodedObject;
import io.kplane.store.ListPage;
import io.kplane.store.ListRequest;
import io.kplane.store.ResourceKey;
import io.kplane.store.ResourceStore;
import io.kplane.store.StoreException;
import io.kplane.store.StoredObject;
import io.vertx.core.Future;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The REST verbs on top of the store, with Kubernetes' write semantics: identity and timestamps on
 * create, optimistic concurrency, read-modify-write retried on store conflicts (GuaranteedUpdate),
 * no-op detection, finalizers and graceful deletion. Knows nothing about HTTP.
 */
public final class ResourceService {
    public static final List<String> PROTECTED_NAMESPACES =
            List.of("default", "kube-system", "kube-public", "kube-node-lease");
    private static final int MAX_UPDATE_ATTEMPTS = 32;
    private static final int MAX_NAME_ATTEMPTS = 8;
    private static final char[] NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

    private final ResourceStore store;
    private final WriteStrategy strategy;
    private final Admission admission;
    private final PatchApplier patcher;
    private final SecureRandom random = new SecureRandom();
    private volatile NamespaceCache namespaceCache;
    private volatile CachedObjects lookupCache;

    public ResourceService(ResourceStore store, WriteStrategy strategy, Admission admission, PatchApplier patcher) {
        this.store = store;
        this.strategy = strategy;
        this.admission = admission;
        this.patcher = patcher;
    }

    /** Lets namespace checks on create be answered from a cache (null: always read the store). */
    public void namespaceCache(NamespaceCache cache) {
        this.namespaceCache = cache;
    }

    /** Lets admission's reads of other objects of the cache's kind be answered from it (a miss reads the store). */
    public void lookupCache(CachedObjects cache) {
        this.lookupCache = cache;
    }

    public ResourceStore store() {
        return store;
    }

    private static ResourceKey key(ResourceType type, String namespace, String name) {
        return new ResourceKey(type.storageName(), type.namespaced() ? namespace : "", name);
    }

    private static <T> Future<T> fail(Throwable t, ResourceType type, String name) {
        return Future.failedFuture(Errors.toApiError(t, type, name));
    }

    // ---------------------------------------------------------------- read

    public Future<ObjectNode> get(ResourceType type, String namespace, String name) {
        return store.get(key(type, namespace, name)).map(StoredObject::object).recover(t -> fail(t, type, name));
    }

    public Future<ObjectNode> list(ResourceType type, String namespace, ListOptions options) {
        Predicate<ObjectNode> filter = Selectors.compile(type, options.labelSelector(), options.fieldSelector());
        validateListVersion(options);
        ListRequest request = new ListRequest(
                type.storageName(),
                type.namespaced() ? namespace : null,
                filter,
                Math.max(0, options.limit()),
                emptyToNull(options.continueToken()));
        return store.list(request).map(page -> listObject(type, page, options)).recover(t -> fail(t, type, null));
    }

    private static void validateListVersion(ListOptions options) {
        String rv = options.resourceVersion();
        String match = options.resourceVersionMatch();
        if (rv != null && !rv.isEmpty()) {
            Trees.parseResourceVersion(rv);
        }
        if (match != null && !match.isEmpty()) {
            if (!match.equals("NotOlderThan") && !match.equals("Exact")) {
                throw ApiError.invalidMessage("resourceVersionMatch: Unsupported value: \"" + match
                        + "\": supported values: \"Exact\", \"NotOlderThan\"");
            }
            if (rv == null || rv.isEmpty()) {
                throw ApiError.invalidMessage(
                        "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided");
            }
            if (emptyToNull(options.continueToken()) != null) {
                throw ApiError.invalidMessage(
                        "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided");
            }
            if (match.equals("Exact") && rv.equals("0")) {
                throw ApiError.invalidMessage(
                        "resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"");
            }
        }
    }

    private ObjectNode listObject(ResourceType type, ListPage page, ListOptions options) {
        String rv = options.resourceVersion();
        // The store serves lists at its newest revision; a request pinned to an older exact revision
        // cannot be served from history and gets 410 so that clients relist.
        if ("Exact".equals(options.resourceVersionMatch()) && rv != null && Long.parseLong(rv) != page.revision()) {
            throw ApiError.expired("too old resource version: " + rv + " (" + page.revision() + ")");
        }
        ObjectNode list = JsonNodeFactory.instance.objectNode();
        list.put("apiVersion", type.apiVersion());
        list.put("kind", type.listKind());
        ObjectNode meta = list.putObject("metadata");
        meta.put("resourceVersion", Long.toString(page.revision()));
        if (page.continueToken() != null) {
            meta.put("continue", page.continueToken());
            if (page.remainingItemCount() != null) {
                meta.put("remainingItemCount", page.remainingItemCount());
            }
        }
        ArrayNode items = list.putArray("items");
        for (StoredObject o : page.items()) {
            items.add(o.object());
        }
        return list;
    }

    // ---------------------------------------------------------------- create

    /** Creates an object from {@code body}, which the service takes over (it is changed in place). */
    public Future<WriteResult> create(ResourceType type, String namespace, JsonNode body, WriteOptions options) {
        ObjectNode object;
        try {
            object = checkBody(type, namespace, body, null);
            checkFields(type, object, options);
        } catch (ApiError e) {
            return Future.failedFuture(e);
        }
        String shownName = Trees.name(object) == null || Trees.name(object).isEmpty()
                ? Trees.text(object, "metadata", "generateName")
                : Trees.name(object);
        return requireNamespace(type, namespace, shownName)
                .compose(v -> createChecked(type, namespace, object, options, 0));
    }

    private Future<WriteResult> createChecked(
            ResourceType type, String namespace, ObjectNode body, WriteOptions options, int attempt) {
        String generateName = Trees.text(body, "metadata", "generateName");
        boolean generated = (Trees.name(body) == null || Trees.name(body).isEmpty())
                && generateName != null
                && !generateName.isEmpty();
        // the body is this request's own tree: only a generated name, which may be retried with another
        // suffix, needs the original kept unchanged
        ObjectNode object = generated ? body.deepCopy() : body;
        if (generated) {
            Trees.meta(object).put("name", generateName(generateName));
        }
        String name = Trees.name(object);
        AdmittedObject admitted;
        try {
            strategy.prepareForCreate(type, object, namespace);
            admitted = admission.admitCreate(type, object);
        } catch (ApiError e) {
            return Future.failedFuture(e);
        } catch (RuntimeException e) {
            return fail(e, type, name);
        }
        if (options.dryRun()) {
            return ResourceStrategies.of(type)
                    .admitWithStore(admitted, generated ? generateName : name, this::find)
                    .map(a -> new WriteResult(a.tree(), true));
        }
        boolean retryName = generated;
        String admittedName = admitted.name();
        if (admittedName == null || admittedName.isEmpty()) {
            return Future.failedFuture(ApiError.invalid(
                    type,
                    "",
                    List.of(new io.kplane.api.meta.Status.StatusCause(
                            "FieldValueRequired",
                            "Required value: name or generateName is required",
                            "metadata.name"))));
        }
        ResourceStrategy resource = ResourceStrategies.of(type);
        String requestName = generated ? generateName : admittedName;
        ResourceKey key = key(type, namespace, admittedName);
        ResourceKey parent = NamespaceLifecycle.parentOf(type, namespace);
        return resource.admitWithStore(admitted, requestName, this::find)
                // admission that reads other objects (a pod's ServiceAccount) can fail because the
                // namespace controller already removed them: NamespaceLifecycle's answer comes first
                .recover(t -> type.namespaced()
                        ? requireNamespaceLive(type, namespace, requestName)
                                .compose(v -> Future.<AdmittedObject>failedFuture(t))
                        : Future.failedFuture(t))
                // the namespace check above is a fast path; the store's fence is the one that holds
                // against a concurrent namespace deletion (docs/storage.md, "Fenced creates")
                .compose(a -> write(key, a, parent))
                .compose(stored -> createCompanions(resource.companions(stored)).map(stored))
                .map(stored -> WriteResult.written(stored, true))
                .recover(t -> {
                    if (retryName && t instanceof StoreException.AlreadyExists && attempt < MAX_NAME_ATTEMPTS) {
                        return createChecked(type, namespace, body, options, attempt + 1);
                    }
                    ApiError refused = NamespaceLifecycle.refusal(t, type, requestName, namespace);
                    return refused != null ? Future.failedFuture(refused) : fail(t, type, name);
                });
    }

    /**
     * Writes an admitted new object: a typed one as its record's JSON, serialised once
     * ({@link StoredForm}); a tree, or a record that needs the tree's handling, as the tree.
     */
    private Future<StoredObject> write(ResourceKey key, AdmittedObject admitted, ResourceKey parent) {
        EncodedObject encoded = admitted.typedOrNull() == null ? null : StoredForm.encode(admitted.typedOrNull());
        if (encoded != null) {
            return store.createEncoded(key, encoded, parent);
        }
        return store.create(key, admitted.tree(), parent);
    }

    /** The stored object, or null when there is none (for admission that reads other objects). */
    private Future<ObjectNode> find(ResourceType type, String namespace, String name) {
        CachedObjects cache = lookupCache;
        ObjectNode cached = cache != null && cache.type().equals(type) ? cache.get(namespace, name) : null;
        if (cached != null) {
            return Future.succeededFuture(cached);
        }
        return store.get(key(type, namespace, name))
                .map(StoredObject::object)
                .recover(t ->
                        t instanceof StoreException.NotFound ? Future.succeededFuture(null) : Future.failedFuture(t));
    }

    /** Creates what a strategy wants created along with an object; ones that exist already are kept. */
    public Future<Void> createCompanions(List<ResourceStrategy.Companion> companions) {
        List<Future<?>> creates = new ArrayList<>();
        for (ResourceStrategy.Companion c : companions) {
            creates.add(create(c.type(), c.namespace(), c.object().deepCopy(), WriteOptions.defaults())
                    .recover(t -> t instanceof ApiError e && e.code() == 409
                            ? Future.succeededFuture()
                            : Future.failedFuture(t)));
        }
        return Future.all(creates).mapEmpty();
    }

    String generateName(String prefix) {
        String base = prefix.length() > 58 ? prefix.substring(0, 58) : prefix;
        StringBuilder sb = new StringBuilder(base);
        for (int i = 0; i < 5; i++) {
            sb.append(NAME_ALPHABET[random.nextInt(NAME_ALPHABET.length)]);
        }
        return sb.toString();
    }

    /** Objects in a namespace that does not exist are refused, as NamespaceLifecycle admission does. */
    private Future<Void> requireNamespace(ResourceType type, String namespace, String shownName) {
        if (!type.namespaced()) {
            return Future.succeededFuture();
        }
        NamespaceCache cache = namespaceCache;
        if (cache != null && cache.knownActive(namespace)) {
            return Future.succeededFuture();
        }
        return requireNamespaceLive(type, namespace, shownName);
    }

    private Future<Void> requireNamespaceLive(ResourceType type, String namespace, String shownName) {
        return store.get(key(ResourceTypes.NAMESPACES, null, namespace))
                .<Void>map(ns -> {
                    if (NamespaceLifecycle.isTerminating(ns.object())) {
                        throw NamespaceLifecycle.terminating(type, shownName, namespace);
                    }
                    return null;
                })
                .recover(t -> Future.failedFuture(
                        t instanceof StoreException.NotFound
                                ? ApiError.namespaceNotFound(namespace)
                                : Errors.toApiError(t, type, null)));
    }

    /**
     * Checks the decoded body is an object of the addressed kind, in the addressed namespace, with
     * the addressed name (when one is given).
     */
    private static ObjectNode checkBody(ResourceType type, String namespace, JsonNode body, String urlName) {
        if (!(body instanceof ObjectNode object)) {
            throw ApiError.badRequest("the request body must be a JSON object");
        }
        String apiVersion = Trees.text(object, "apiVersion");
        String kind = Trees.text(object, "kind");
        if (apiVersion != null && !apiVersion.isEmpty() && !apiVersion.equals(type.apiVersion())) {
            throw ApiError.badRequest("the API version in the data (" + apiVersion
                    + ") does not match the expected API version (" + type.apiVersion() + ")");
        }
        if (kind != null && !kind.isEmpty() && !kind.equals(type.kind())) {
            throw ApiError.badRequest(
                    "the kind in the data (" + kind + ") does not match the expected kind (" + type.kind() + ")");
        }
        JsonNode meta = object.get("metadata");
        if (meta != null && !meta.isNull() && !meta.isObject()) {
            throw ApiError.badRequest("metadata must be an object");
        }
        if (meta != null) {
            for (String field : List.of("name", "generateName", "namespace", "resourceVersion", "uid")) {
                JsonNode v = meta.get(field);
                if (v != null && !v.isNull() && !v.isTextual()) {
                    throw ApiError.badRequest("metadata." + field + " must be a string");
                }
            }
        }
        String bodyNamespace = Trees.text(object, "metadata", "namespace");
        if (type.namespaced()
                && bodyNamespace != null
                && !bodyNamespace.isEmpty()
                && !bodyNamespace.equals(namespace)) {
            throw ApiError.badRequest(
                    "the namespace of the provided object does not match the namespace sent " + "on the request");
        }
        if (urlName != null) {
            String bodyName = Trees.name(object);
            if (bodyName != null && !bodyName.isEmpty() && !bodyName.equals(urlName)) {
                throw ApiError.badRequest("the name of the object (" + bodyName
                        + ") does not match the name on the URL (" + urlName + ")");
            }
            Trees.meta(object).put("name", urlName);
        }
        return object;
    }

    /** Unknown fields: 400 under Strict, a warning under Warn; pruned in every mode but Strict. */
    private static void checkFields(ResourceType type, ObjectNode object, WriteOptions options) {
        if (type.javaType() == null) {
            return;
        }
        List<String> unknown = UnknownFields.find(type, object);
        if (unknown.isEmpty()) {
            return;
        }
        switch (options.fieldValidation()) {
            case STRICT -> {
                StringBuilder sb = new StringBuilder("strict decoding error: ");
                for (int i = 0; i < unknown.size(); i++) {
                    sb.append(i == 0 ? "" : ", ")
                            .append("unknown field \"")
                            .append(unknown.get(i))
                            .append('"');
                }
                throw ApiError.badRequest(sb.toString());
            }
            case WARN -> unknown.forEach(f -> options.warnings().add("unknown field \"" + f + "\""));
            case IGNORE -> {}
        }
        UnknownFields.prune(object, type);
    }

    // ---------------------------------------------------------------- update / patch

    /** PUT of the main resource ({@code subresource} null) or of {@code status}. */
    public Future<WriteResult> update(
            ResourceType type, String namespace, String name, String subresource, JsonNode body, WriteOptions options) {
        ObjectNode requested;
        try {
            requested = checkBody(type, namespace, body, name);
            checkFields(type, requested, options);
        } catch (ApiError e) {
            return Future.failedFuture(e);
        }
        String precondition = Trees.resourceVersion(requested);
        boolean status = "status".equals(subresource);
        boolean finalize = "finalize".equals(subresource);
        return guaranteedUpdate(type, namespace, name, options, current -> {
            checkPrecondition(type, name, precondition, current);
            if (finalize) {
                ObjectNode finalized = NamespaceLifecycle.withFinalizersOf(requested, current);
                strategy.prepareForFinalize(type, finalized, current);
                return EmptyStructs.fill(admission.admit(type, finalized, current));
            }
            return status ? statusUpdate(type, requested, current) : mainUpdate(type, requested.deepCopy(), current);
        });
    }

    public Future<WriteResult> patch(
            ResourceType type,
            String namespace,
            String name,
            String subresource,
            PatchType patchType,
            JsonNode patch,
            WriteOptions options) {
        boolean status = "status".equals(subresource);
        Function<ObjectNode, ObjectNode> change = current -> {
            ObjectNode patched = patcher.apply(type, patchType, current, patch);
            ObjectNode checked = checkBody(type, namespace, patched, name);
            checkFields(type, checked, options);
            if (patchType != PatchType.APPLY) {
                checkPrecondition(type, name, Trees.resourceVersion(checked), current);
            }
            return status ? statusUpdate(type, checked, current) : mainUpdate(type, checked, current);
        };
        Future<WriteResult> updated = guaranteedUpdate(type, namespace, name, options, change);
        if (patchType != PatchType.APPLY || status) {
            return updated;
        }
        // server-side apply creates the object when it does not exist yet
        return updated.recover(t -> {
            if (t instanceof ApiError e
                    && e.code() == 404
                    && "NotFound".equals(e.reason())
                    && e.status().details() != null
                    && name.equals(e.status().details().name())) {
                ObjectNode object = patch instanceof ObjectNode on ? on.deepCopy() : null;
                if (object == null) {
                    return Future.failedFuture(ApiError.badRequest("the apply patch must be an object"));
                }
                Trees.meta(object).put("name", name);
                return create(type, namespace, object, options);
            }
            return Future.failedFuture(t);
        });
    }

    private ObjectNode mainUpdate(ResourceType type, ObjectNode updated, ObjectNode current) {
        strategy.prepareForUpdate(type, updated, current);
        return EmptyStructs.fill(admission.admit(type, updated, current));
    }

    private ObjectNode statusUpdate(ResourceType type, ObjectNode requested, ObjectNode current) {
        return EmptyStructs.fill(
                admission.admitStatus(type, strategy.prepareForStatusUpdate(requested, current), current));
    }

    private static void checkPrecondition(ResourceType type, String name, String precondition, ObjectNode current) {
        if (precondition != null && !precondition.isEmpty() && !precondition.equals(Trees.resourceVersion(current))) {
            throw ApiError.staleResourceVersion(type, name);
        }
    }

    /**
     * Read, change, write with the read revision; on a store conflict read again and redo the change.
     * A change that leaves the object as it was writes nothing. An update that removes the last
     * finalizer of an object being deleted removes the object.
     */
    private Future<WriteResult> guaranteedUpdate(
            ResourceType type,
            String namespace,
            String name,
            WriteOptions options,
            Function<ObjectNode, ObjectNode> change) {
        return guaranteedUpdate(type, key(type, namespace, name), options, change, 0);
    }

    private Future<WriteResult> guaranteedUpdate(
            ResourceType type,
            ResourceKey key,
            WriteOptions options,
            Function<ObjectNode, ObjectNode> change,
            int attempt) {
        // The first attempt may start from the store's memory of its own recent writes (no database
        // read). That base may be stale, which a conditional write detects; any other conclusion drawn
        // from it (an error, "nothing to change") is redone from the database before it is answered.
        boolean fromMemory = attempt == 0 && !options.dryRun();
        Future<StoredObject> base = fromMemory ? store.getForUpdate(key) : store.get(key);
        return base.compose(current -> {
                    ObjectNode updated;
                    try {
                        updated = change.apply(current.object().deepCopy());
                    } catch (ApiError e) {
                        return fromMemory ? Future.failedFuture(RereadFromDatabase.INSTANCE) : Future.failedFuture(e);
                    } catch (RuntimeException e) {
                        // Client mistakes in a patch or body arrive as ApiError; anything else here is a bug of
                        // the server, answered as a logged 500 (never as the client's 400).
                        return Future.failedFuture(
                                fromMemory ? RereadFromDatabase.INSTANCE : Errors.toApiError(e, type, key.name()));
                    }
                    Trees.meta(updated).put("resourceVersion", Long.toString(current.revision()));
                    if (Trees.sameContent(updated, current.object())) {
                        return fromMemory
                                ? Future.failedFuture(RereadFromDatabase.INSTANCE)
                                : Future.succeededFuture(new WriteResult(current.object(), false));
                    }
                    if (options.dryRun()) {
                        return Future.succeededFuture(new WriteResult(updated, false));
                    }
                    if (Trees.isBeingDeleted(updated)
                            && Trees.finalizers(updated).isEmpty()
                            && !ResourceStrategies.of(type).awaitsGracefulTermination(updated)) {
                        return store.delete(key, current.revision()).map(d -> new WriteResult(d.object(), false));
                    }
                    return store.update(key, updated, current.revision()).map(s -> WriteResult.written(s, false));
                })
                .recover(t -> {
                    if (t == RereadFromDatabase.INSTANCE
                            || (t instanceof StoreException.Conflict && attempt < MAX_UPDATE_ATTEMPTS)) {
                        return guaranteedUpdate(type, key, options, change, attempt + 1);
                    }
                    return fail(t, type, key.name());
                });
    }

    /** The change was judged against a base from memory, which may be stale: judge it again from the database. */
    private static final class RereadFromDatabase extends RuntimeException {
        static final RereadFromDatabase INSTANCE = new RereadFromDatabase();

        private RereadFromDatabase() {
            super("reread from the database", null, false, false);
        }
    }

    /** pods/binding: sets spec.nodeName and the PodScheduled condition; 409 if already bound. */
    public Future<WriteResult> bindPod(
            String namespace, String name, String node, ObjectNode scheduledCondition, WriteOptions options) {
        ResourceType type = ResourceTypes.PODS;
        return guaranteedUpdate(type, namespace, name, options, current -> {
            String bound = Trees.text(current, "spec", "nodeName");
            if (bound != null && !bound.isEmpty()) {
                throw ApiError.conflict(type, name, "pod " + name + " is already assigned to node \"" + bound + "\"");
            }
            if (!(current.get("spec") instanceof ObjectNode spec)) {
                throw ApiError.badRequest("pod " + name + " has no spec");
            }
            spec.put("nodeName", node);
            ObjectNode status = current.get("status") instanceof ObjectNode s ? s : current.putObject("status");
            ArrayNode conditions = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
            for (int i = conditions.size() - 1; i >= 0; i--) {
                if ("PodScheduled".equals(conditions.get(i).path("type").asText())) {
                    conditions.remove(i);
                }
            }
            conditions.add(scheduledCondition);
            return current;
        });
    }

    // ---------------------------------------------------------------- delete

    public Future<DeleteResult> delete(ResourceType type, String namespace, String name, DeleteOptions options) {
        DeleteOptions opts = options == null ? new DeleteOptions(null, null, null, null, null, null, null) : options;
        String policy;
        try {
            policy = propagationPolicy(type, opts);
        } catch (ApiError e) {
            return Future.failedFuture(e);
        }
        boolean dryRun = opts.dryRun() != null && opts.dryRun().contains("All");
        if (type == ResourceTypes.NAMESPACES) {
            return deleteNamespace(name, opts, dryRun, 0);
        }
        return deleteAttempt(type, key(type, namespace, name), opts, policy, dryRun, 0);
    }

    private Future<DeleteResult> deleteAttempt(
            ResourceType type, ResourceKey key, DeleteOptions opts, String policy, boolean dryRun, int attempt) {
        return store.get(key)
                .compose(current -> {
                    ObjectNode object = current.object().deepCopy();
                    try {
                        checkDeletePreconditions(type, key.name(), opts, object);
                    } catch (ApiError e) {
                        return Future.failedFuture(e);
                    }
                    ObjectNode meta = Trees.meta(object);
                    List<String> finalizers = new ArrayList<>(Trees.finalizers(object));
                    boolean changed = applyPropagationFinalizers(policy, finalizers);
                    Trees.setFinalizers(object, finalizers);
                    Long grace = ResourceStrategies.of(type).gracePeriodSeconds(object, opts);
                    boolean alreadyDeleting = Trees.isBeingDeleted(object);
                    if (grace != null) {
                        Long currentGrace = meta.has("deletionGracePeriodSeconds")
                                ? meta.get("deletionGracePeriodSeconds").asLong()
                                : null;
                        if (!alreadyDeleting || currentGrace == null || grace < currentGrace) {
                            Instant now = strategy.now();
                            meta.put("deletionTimestamp", Json.formatTime(now.plus(Duration.ofSeconds(grace))));
                            meta.put("deletionGracePeriodSeconds", grace);
                            changed = true;
                        }
                    } else if (!alreadyDeleting) {
                        meta.put("deletionTimestamp", Json.formatTime(strategy.now()));
                        meta.put("deletionGracePeriodSeconds", 0);
                        changed = true;
                    }
                    boolean removeNow = finalizers.isEmpty() && (grace == null || grace == 0);
                    // kube-apiserver (handlers/delete.go) answers 202 only when the object stays and the request set
                    // the deprecated orphanDependents=false; a Foreground delete is otherwise a 200 with the object
                    boolean accepted = Boolean.FALSE.equals(opts.orphanDependents());
                    if (dryRun) {
                        return Future.succeededFuture(new DeleteResult(
                                removeNow ? current.object() : object, removeNow, accepted && !removeNow));
                    }
                    if (removeNow) {
                        return store.delete(key, current.revision())
                                .map(d -> new DeleteResult(d.object(), true, false));
                    }
                    if (!changed) {
                        return Future.succeededFuture(new DeleteResult(current.object(), false, accepted));
                    }
                    return store.update(key, object, current.revision())
                            .map(s -> new DeleteResult(s.object(), false, accepted));
                })
                .recover(t -> {
                    if (t instanceof StoreException.Conflict && attempt < MAX_UPDATE_ATTEMPTS) {
                        return deleteAttempt(type, key, opts, policy, dryRun, attempt + 1);
                    }
                    return fail(t, type, key.name());
                });
    }

    private static String propagationPolicy(ResourceType type, DeleteOptions opts) {
        String policy = opts.propagationPolicy();
        if (policy != null && !policy.isEmpty()) {
            if (!DeletionPropagation.ALL.contains(policy)) {
                throw ApiError.invalidMessage("DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: "
                        + "Unsupported value: \"" + policy + "\": supported values: \"Foreground\", \"Background\", "
                        + "\"Orphan\", \"nil\"");
            }
            if (opts.orphanDependents() != null) {
                throw ApiError.invalidMessage(
                        "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: " + "Invalid value: \"" + policy
                                + "\": orphanDependents and deletionPropagation cannot be both set");
            }
            return policy;
        }
        if (opts.orphanDependents() != null) {
            // store.go shouldDeleteDependents: orphanDependents=false means "delete dependents first"
            return opts.orphanDependents() ? DeletionPropagation.ORPHAN : DeletionPropagation.FOREGROUND;
        }
        return ResourceStrategies.of(type).defaultPropagationPolicy();
    }

    /** Records the propagation policy as a garbage-collector finalizer, as Kubernetes does. */
    private static boolean applyPropagationFinalizers(String policy, List<String> finalizers) {
        List<String> before = List.copyOf(finalizers);
        switch (policy) {
            case DeletionPropagation.ORPHAN -> {
                finalizers.remove(Finalizers.FOREGROUND_DELETION);
                if (!finalizers.contains(Finalizers.ORPHAN)) {
                    finalizers.add(Finalizers.ORPHAN);
                }
            }
            case DeletionPropagation.FOREGROUND -> {
                finalizers.remove(Finalizers.ORPHAN);
                if (!finalizers.contains(Finalizers.FOREGROUND_DELETION)) {
                    finalizers.add(Finalizers.FOREGROUND_DELETION);
                }
            }
            default -> {
                finalizers.remove(Finalizers.ORPHAN);
                finalizers.remove(Finalizers.FOREGROUND_DELETION);
            }
        }
        return !before.equals(finalizers);
    }

    private static void checkDeletePreconditions(
            ResourceType type, String name, DeleteOptions opts, ObjectNode current) {
        DeleteOptions.Preconditions p = opts.preconditions();
        if (p == null) {
            return;
        }
        String uid = Trees.text(current, "metadata", "uid");
        if (p.uid() != null && !p.uid().equals(uid)) {
            throw ApiError.conflict(
                    type,
                    name,
                    "Precondition failed: UID in precondition: " + p.uid() + ", UID in object meta: " + uid);
        }
        String rv = Trees.resourceVersion(current);
        if (p.resourceVersion() != null && !p.resourceVersion().equals(rv)) {
            throw ApiError.conflict(
                    type,
                    name,
                    "Precondition failed: ResourceVersion in precondition: " + p.resourceVersion()
                            + ", ResourceVersion in object meta: " + rv);
        }
    }

    /**
     * Deleting a namespace, as kube-apiserver's namespace registry: the first DELETE marks it Terminating
     * (from then on the store's fence refuses creates in it) and answers it; the namespace controller
     * empties it and removes its {@code kubernetes} finalizer (which removes it, see
     * {@link ResourceStrategy#awaitsGracefulTermination}); a DELETE while {@code spec.finalizers} is
     * not empty is a 409, one after that removes it.
     */
    private Future<DeleteResult> deleteNamespace(String name, DeleteOptions opts, boolean dryRun, int attempt) {
        ResourceType type = ResourceTypes.NAMESPACES;
        if (PROTECTED_NAMESPACES.contains(name)) {
            return Future.failedFuture(ApiError.of(
                    403, "Forbidden", "namespaces \"" + name + "\" is forbidden: this namespace may not be deleted"));
        }
        ResourceKey nsKey = key(type, null, name);
        return store.get(nsKey)
                .compose(ns -> {
                    try {
                        checkDeletePreconditions(type, name, opts, ns.object());
                    } catch (ApiError e) {
                        return Future.failedFuture(e);
                    }
                    if (!Trees.isBeingDeleted(ns.object())) {
                        ObjectNode marked = ns.object().deepCopy();
                        NamespaceLifecycle.markTerminating(marked, strategy.now());
                        if (dryRun) {
                            return Future.succeededFuture(new DeleteResult(marked, false, false));
                        }
                        return store.update(nsKey, marked, ns.revision())
                                .map(s -> new DeleteResult(s.object(), false, false));
                    }
                    if (!NamespaceLifecycle.specFinalizers(ns.object()).isEmpty()) {
                        return Future.failedFuture(NamespaceLifecycle.stillFinalizing(name));
                    }
                    if (!Trees.finalizers(ns.object()).isEmpty()) {
                        return Future.succeededFuture(new DeleteResult(ns.object(), false, false));
                    }
                    if (dryRun) {
                        return Future.succeededFuture(new DeleteResult(ns.object(), true, false));
                    }
                    return store.delete(nsKey, ns.revision()).map(d -> new DeleteResult(d.object(), true, false));
                })
                .recover(t -> {
                    if (t instanceof StoreException.Conflict && attempt < MAX_UPDATE_ATTEMPTS) {
                        return deleteNamespace(name, opts, dryRun, attempt + 1);
                    }
                    return fail(t, type, name);
                });
    }

    /** Deletes every object the selectors match, each as a single delete would; returns the list. */
    public Future<ObjectNode> deleteCollection(
            ResourceType type, String namespace, ListOptions listOptions, DeleteOptions options) {
        return list(
                        type,
                        namespace,
                        new ListOptions(listOptions.labelSelector(), listOptions.fieldSelector(), 0, null, null, null))
                .compose(list -> {
                    List<Future<DeleteResult>> deletes = new ArrayList<>();
                    for (JsonNode item : list.withArray("items")) {
                        String itemNamespace = Trees.text(item, "metadata", "namespace");
                        deletes.add(delete(type, itemNamespace, Trees.name((ObjectNode) item), options)
                                .recover(t -> t instanceof ApiError e && e.code() == 404
                                        ? Future.succeededFuture(null)
                                        : Future.failedFuture(t)));
                    }
                    return Future.all(deletes).map(all -> {
                        ArrayNode items = list.putArray("items");
                        for (Future<DeleteResult> f : deletes) {
                            if (f.result() != null) {
                                items.add(f.result().object());
                            }
                        }
                        return list;
                    });
                });
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    static boolean same(Object a, Object b) {
        return Objects.equals(a, b);
    }
}
