package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.apiserver.watch.WatchAnswerGate;
import io.kplane.store.ListPage;
import io.kplane.store.ListRequest;
import io.kplane.store.ResourceKey;
import io.kplane.store.ResourceStore;
import io.kplane.store.StoredObject;
import io.kplane.store.WatchHandle;
import io.kplane.store.WatchListener;
import io.kplane.store.pg.PgResourceStore;
import io.kplane.store.pg.StoreConfig;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A watch without a resourceVersion lists before it answers (its headers, its WebSocket's 101), so a
 * change the client makes once it sees the watch open always comes as an event after the listed
 * objects: never folded into the list with no MODIFIED or DELETED to follow (fabric8's
 * {@code WatchIT.testWatch} failed so once, when the list was taken after the headers).
 *
 * <p>Each case commits one change (a create, an update or a delete of a ConfigMap) at one moment of the
 * watch's start, made deterministic by holding the server there: while the list is held before it
 * reads (a store wrapper), at the answer once the list has been read ({@link WatchAnswerGate}), or
 * once the client has the answer. A marker object created last tells when every earlier event has
 * arrived, so the absence of an event is asserted too. Chunked HTTP and WebSocket watches both.
 */
class WatchListBeforeAnswerTest {
    static Vertx vertx;
    static PgResourceStore pg;
    static HoldingStore store;
    static final AnswerGate gate = new AnswerGate();
    static ApiServer server;
    static Http http;
    static final AtomicInteger namespaces = new AtomicInteger();

    enum Transport {
        CHUNKED,
        WEBSOCKET
    }

    enum Change {
        CREATE,
        UPDATE,
        DELETE
    }

    /** When the change commits. */
    enum Moment {
        /** the watch's list is held before it reads: the client cannot have the answer yet */
        BEFORE_THE_LIST,
        /** the list has been read, the answer is held: the earliest a client could change after it */
        AT_THE_ANSWER,
        /** the client has the answer (headers or 101), as a real client would */
        AFTER_THE_ANSWER
    }

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        pg = PgResourceStore.open(
                        vertx,
                        StoreConfig.of(TestPostgres.get().newDatabase()).withSafetyPollInterval(Duration.ofMillis(500)))
                .await(60, TimeUnit.SECONDS);
        store = new HoldingStore(pg);
        server = ApiServer.start(vertx, store, new ApiServerOptions().port(0).watchAnswerGate(gate))
                .await(60, TimeUnit.SECONDS);
        http = new Http("http://127.0.0.1:" + server.port());
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (pg != null) {
            pg.close();
        }
        vertx.close().await(30, TimeUnit.SECONDS);
    }

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (Transport t : Transport.values()) {
            for (Change c : Change.values()) {
                for (Moment m : Moment.values()) {
                    all.add(Arguments.of(t, c, m));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} watch, {1} {2}")
    @MethodSource("cases")
    void aChangeIsListedOrComesAsAnEventNeverBoth(Transport transport, Change change, Moment moment) throws Exception {
        String ns = "watch-start-" + namespaces.incrementAndGet();
        assertThat(http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + ns + "\"}}")
                        .code())
                .isEqualTo(201);
        create(ns, "cm", "1");
        String url = "http://127.0.0.1:" + server.port() + "/api/v1/namespaces/" + ns + "/configmaps?watch=true";

        Hold list = moment == Moment.BEFORE_THE_LIST ? store.holdNextList(ns) : null;
        Hold answer = moment == Moment.AT_THE_ANSWER ? gate.holdNext() : null;
        int answersBefore = gate.answers.get();
        try (Watcher watcher = Watcher.open(transport, url)) {
            switch (moment) {
                case BEFORE_THE_LIST -> {
                    list.reached.get(30, TimeUnit.SECONDS);
                    assertThat(gate.answers.get())
                            .as("the watch answered before it listed")
                            .isEqualTo(answersBefore);
                    assertThat(watcher.answered()).isFalse();
                    apply(change, ns);
                    list.release.complete();
                    watcher.awaitAnswer();
                }
                case AT_THE_ANSWER -> {
                    answer.reached.get(30, TimeUnit.SECONDS);
                    apply(change, ns);
                    answer.release.complete();
                    watcher.awaitAnswer();
                }
                case AFTER_THE_ANSWER -> {
                    watcher.awaitAnswer();
                    apply(change, ns);
                }
            }
            create(ns, "marker", null);
            await().atMost(Duration.ofSeconds(30)).until(() -> watcher.summary().contains("ADDED marker"));
            assertThat(watcher.summary()).containsExactlyElementsOf(expected(change, moment));
        }
    }

    /** What the client sees: the change in the list before the answer, an event after it. */
    static List<String> expected(Change change, Moment moment) {
        boolean listed = moment == Moment.BEFORE_THE_LIST;
        return switch (change) {
            case CREATE -> List.of("ADDED cm 1", "ADDED new 1", "ADDED marker");
            case UPDATE -> listed
                    ? List.of("ADDED cm 2", "ADDED marker")
                    : List.of("ADDED cm 1", "MODIFIED cm 2", "ADDED marker");
            case DELETE -> listed ? List.of("ADDED marker") : List.of("ADDED cm 1", "DELETED cm 1", "ADDED marker");
        };
    }

    static void apply(Change change, String ns) {
        switch (change) {
            case CREATE -> create(ns, "new", "1");
            case UPDATE -> assertThat(http.put("/api/v1/namespaces/" + ns + "/configmaps/cm", configMap("cm", "2"))
                            .code())
                    .isEqualTo(200);
            case DELETE -> assertThat(http.delete("/api/v1/namespaces/" + ns + "/configmaps/cm")
                            .code())
                    .isEqualTo(200);
        }
    }

    static void create(String ns, String name, String v) {
        assertThat(http.post("/api/v1/namespaces/" + ns + "/configmaps", configMap(name, v))
                        .code())
                .isEqualTo(201);
    }

    static String configMap(String name, String v) {
        return "{\"metadata\":{\"name\":\"" + name + "\"}" + (v == null ? "" : ",\"data\":{\"v\":\"" + v + "\"}") + "}";
    }

    /** "TYPE name v" per event, bookmarks left out. */
    static List<String> summary(List<JsonNode> events) {
        return events.stream()
                .filter(e -> !e.get("type").asText().equals("BOOKMARK"))
                .map(e -> {
                    String line = e.get("type").asText() + " "
                            + e.at("/object/metadata/name").asText();
                    JsonNode v = e.at("/object/data/v");
                    return v.isMissingNode() ? line : line + " " + v.asText();
                })
                .toList();
    }

    /** A moment the server waits at: {@code reached} when it gets there, it goes on at {@code release}. */
    static final class Hold {
        final CompletableFuture<Void> reached = new CompletableFuture<>();
        final Promise<Void> release = Promise.promise();
    }

    /** Counts the watches' answers; holds the next one when asked to. */
    static final class AnswerGate implements WatchAnswerGate {
        final AtomicInteger answers = new AtomicInteger();
        final AtomicReference<Hold> next = new AtomicReference<>();

        Hold holdNext() {
            Hold hold = new Hold();
            next.set(hold);
            return hold;
        }

        @Override
        public Future<Void> beforeAnswer() {
            answers.incrementAndGet();
            Hold hold = next.getAndSet(null);
            if (hold == null) {
                return Future.succeededFuture();
            }
            hold.reached.complete(null);
            return hold.release.future();
        }
    }

    /**
     * The real store with one seam: the next list of ConfigMaps in a namespace waits before it reads
     * until released. Everything else goes straight to PostgreSQL.
     */
    static final class HoldingStore implements ResourceStore {
        private final ResourceStore store;
        private final java.util.Map<String, Hold> held = new java.util.concurrent.ConcurrentHashMap<>();

        HoldingStore(ResourceStore store) {
            this.store = store;
        }

        Hold holdNextList(String namespace) {
            Hold hold = new Hold();
            held.put(namespace, hold);
            return hold;
        }

        @Override
        public Future<ListPage> list(ListRequest request) {
            Hold hold = request.resource().equals("configmaps") && request.namespace() != null
                    ? held.remove(request.namespace())
                    : null;
            if (hold == null) {
                return store.list(request);
            }
            hold.reached.complete(null);
            return hold.release.future().compose(v -> store.list(request));
        }

        @Override
        public Future<StoredObject> create(ResourceKey key, ObjectNode object) {
            return store.create(key, object);
        }

        @Override
        public Future<StoredObject> create(ResourceKey key, ObjectNode object, ResourceKey parent) {
            return store.create(key, object, parent);
        }

        @Override
        public Future<StoredObject> createEncoded(
                ResourceKey key, io.kplane.store.EncodedObject object, ResourceKey parent) {
            return store.createEncoded(key, object, parent);
        }

        @Override
        public Future<StoredObject> update(ResourceKey key, ObjectNode object, long expectedRevision) {
            return store.update(key, object, expectedRevision);
        }

        @Override
        public Future<StoredObject> delete(ResourceKey key, long expectedRevision) {
            return store.delete(key, expectedRevision);
        }

        @Override
        public Future<StoredObject> get(ResourceKey key) {
            return store.get(key);
        }

        @Override
        public Future<StoredObject> getForUpdate(ResourceKey key) {
            return store.getForUpdate(key);
        }

        @Override
        public Future<Long> currentRevision() {
            return store.currentRevision();
        }

        @Override
        public Future<Void> writerReady() {
            return store.writerReady();
        }

        @Override
        public WatchHandle watch(String resource, String namespace, long fromRevision, WatchListener listener) {
            return store.watch(resource, namespace, fromRevision, listener);
        }

        @Override
        public Future<Long> compact() {
            return store.compact();
        }

        @Override
        public void close() {
            // the test closes the real store
        }
    }

    /** A chunked or WebSocket watch, opened without waiting for its answer. */
    interface Watcher extends AutoCloseable {
        boolean answered();

        List<String> summary();

        default void awaitAnswer() {
            await().atMost(Duration.ofSeconds(30)).until(this::answered);
        }

        @Override
        void close();

        static Watcher open(Transport transport, String url) {
            return transport == Transport.CHUNKED ? new Chunked(url) : new WebSocket(url);
        }
    }

    /** A chunked watch read line by line on its own thread; a failed request is kept, not swallowed. */
    static final class Chunked implements Watcher {
        private final List<JsonNode> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final CompletableFuture<java.io.InputStream> answer;

        Chunked(String url) {
            answer = java.net.http.HttpClient.newHttpClient()
                    .sendAsync(
                            java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofInputStream())
                    .thenApply(response -> {
                        assertThat(response.statusCode()).isEqualTo(200);
                        return response.body();
                    });
            answer.thenAccept(body -> io.kplane.api.util.DaemonThreads.newThread("watch-reader", () -> {
                        try (java.io.BufferedReader in = new java.io.BufferedReader(
                                new java.io.InputStreamReader(body, java.nio.charset.StandardCharsets.UTF_8))) {
                            String line;
                            while ((line = in.readLine()) != null) {
                                if (!line.isBlank()) {
                                    events.add(io.kplane.api.json.Json.tree(line));
                                }
                            }
                        } catch (java.io.IOException e) {
                            // closed by the test
                        }
                    })
                    .start());
        }

        @Override
        public boolean answered() {
            if (answer.isCompletedExceptionally()) {
                answer.join(); // throws the request's failure
            }
            return answer.isDone();
        }

        @Override
        public List<String> summary() {
            return WatchListBeforeAnswerTest.summary(events);
        }

        @Override
        public void close() {
            answer.thenAccept(body -> {
                try {
                    body.close();
                } catch (java.io.IOException ignored) {
                    // closing anyway
                }
            });
        }
    }

    static final class WebSocket implements Watcher {
        private final CompletableFuture<WebSocketWatchClient> client;

        WebSocket(String url) {
            client = CompletableFuture.supplyAsync(() -> {
                try {
                    return new WebSocketWatchClient(url);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }

        @Override
        public boolean answered() {
            if (client.isCompletedExceptionally()) {
                client.join(); // throws the handshake's failure
            }
            return client.isDone();
        }

        @Override
        public List<String> summary() {
            return answered() ? WatchListBeforeAnswerTest.summary(client.join().events()) : List.of();
        }

        @Override
        public void close() {
            client.thenAccept(WebSocketWatchClient::close);
        }
    }
}
