package io.kplane.store.pg;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.store.ListPage;
import io.kplane.store.ListRequest;
import io.kplane.store.ResourceKey;
import io.kplane.store.StoreException;
import io.kplane.store.StoredObject;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * Serves lists, every page from an exact snapshot at the list's revision R: the first page reads R
 * and the objects in one REPEATABLE READ transaction; a continue page rebuilds the state at R from
 * the current objects and the event log (a key changed after R is taken from the earliest later
 * event's previous state), which is exact as long as the log above R has not been compacted, and
 * Expired otherwise, like a Kubernetes continue token. The caller's filter runs before the limit.
 */
final class Lister {
    private static final int CHUNK = 500;

    /**
     * Objects of $1 in namespace $2 ('' = all) after key ($3, $4), as of revision $6, up to $5 rows.
     * "later" holds, per key changed after $6, the earliest such change: its previous state is the
     * state at $6 (none if that change created the key). The unchanged objects are limited to $5 in
     * key order before the union (the first $5 of the union are among the first $5 of each part), so
     * a page reads about $5 objects from the primary key instead of every object after the cursor.
     */
    private static final String SNAPSHOT_PAGE =
            """
            WITH later AS (
              SELECT DISTINCT ON (namespace, name) namespace, name, type,
                     coalesce(prev_object, object) AS data, prev_revision
              FROM event_log
              WHERE resource = $1 AND revision > $6 AND ($2 = '' OR namespace = $2) AND (namespace, name) > ($3, $4)
              ORDER BY namespace, name, revision)
            (SELECT namespace, name, revision, data FROM objects o
              WHERE resource = $1 AND ($2 = '' OR namespace = $2) AND (namespace, name) > ($3, $4)
                AND NOT EXISTS (SELECT 1 FROM later l WHERE l.namespace = o.namespace AND l.name = o.name)
              ORDER BY namespace, name
              LIMIT $5)
            UNION ALL
            SELECT namespace, name, prev_revision, data FROM later WHERE type <> 'A'
            ORDER BY namespace, name
            LIMIT $5
            """;

    /**
     * The list's snapshot, and no nested-loop joins in it: PostgreSQL estimates the row comparison
     * {@code (namespace, name) > ($3, $4)} at one row, so it probed "later" once per object (35,000
     * pods, 100 changed since the page's revision: 1.7 s per 500-item chunk; 9,360 changed: 45 s),
     * where a merge anti join over the two key-ordered inputs takes 1-2 ms and 0.2 s
     * (docs/performance.md, "one index entry fewer per write"). SET LOCAL ends with the transaction.
     */
    private static final String BEGIN_SNAPSHOT =
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL enable_nestloop = off";

    private final Pool pool;

    Lister(Pool pool) {
        this.pool = pool;
    }

    Future<ListPage> list(ListRequest request) {
        ContinueToken token;
        try {
            token = request.continueToken() == null || request.continueToken().isEmpty()
                    ? null
                    : ContinueToken.decode(request.continueToken(), request.resource());
        } catch (StoreException e) {
            return Future.failedFuture(e);
        }
        return pool.withConnection(conn -> conn.query(BEGIN_SNAPSHOT)
                .execute()
                .compose(v -> conn.query("SELECT (" + Statements.CURRENT_REVISION + "), (" + Statements.COMPACTED + ")")
                        .execute())
                .compose(rows -> {
                    Row row = rows.iterator().next();
                    long current = row.getLong(0);
                    long compacted = row.getLong(1);
                    if (token != null && token.revision() < compacted) {
                        return Future.failedFuture(new StoreException.Expired(token.revision(), compacted));
                    }
                    Page page = token == null
                            ? new Page(request, current, "", "")
                            : new Page(request, token.revision(), token.namespace(), token.name());
                    return page.fill(conn);
                })
                .eventually(() -> conn.query("ROLLBACK").execute()));
    }

    /** Accumulates matching items chunk by chunk until the page is full (plus one, to know if more follow). */
    private static final class Page {
        private final ListRequest request;
        private final long revision;
        private final String namespace;
        private final List<StoredObject> items = new ArrayList<>();
        private String afterNamespace;
        private String afterName;
        private boolean more;

        Page(ListRequest request, long revision, String afterNamespace, String afterName) {
            this.request = request;
            this.revision = revision;
            this.namespace = request.namespace() == null ? "" : request.namespace();
            this.afterNamespace = afterNamespace;
            this.afterName = afterName;
        }

        Future<ListPage> fill(SqlConnection conn) {
            Tuple params = Tuple.of(request.resource(), namespace, afterNamespace, afterName, CHUNK, revision);
            return conn.preparedQuery(SNAPSHOT_PAGE).execute(params).compose(rows -> {
                int count = 0;
                for (Row row : rows) {
                    count++;
                    afterNamespace = row.getString(0);
                    afterName = row.getString(1);
                    if (accept(row)) {
                        return Future.succeededFuture(result());
                    }
                }
                return count < CHUNK ? Future.succeededFuture(result()) : fill(conn);
            });
        }

        /** Adds the row if it matches; true once the page is known to be full and more items follow. */
        private boolean accept(Row row) {
            long itemRevision = row.getLong(2);
            ObjectNode object = ObjectCodec.decode(row.getString(3), itemRevision);
            if (request.filter() != null && !request.filter().test(object)) {
                return false;
            }
            if (request.limit() > 0 && items.size() == request.limit()) {
                more = true;
                return true;
            }
            items.add(new StoredObject(
                    new ResourceKey(request.resource(), row.getString(0), row.getString(1)), itemRevision, object));
            return false;
        }

        private ListPage result() {
            String next = null;
            if (more) {
                StoredObject last = items.get(items.size() - 1);
                next = new ContinueToken(
                                revision,
                                request.resource(),
                                last.key().namespace(),
                                last.key().name())
                        .encode();
            }
            return new ListPage(revision, List.copyOf(items), next, null);
        }
    }
}
