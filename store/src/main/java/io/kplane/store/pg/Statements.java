package io.kplane.store.pg;

/**
 * The store's SQL. Write statements run inside a transaction that first locked the revision row
 * ({@link #LOCK_REVISION}), so under READ COMMITTED each statement's fresh snapshot already contains
 * every earlier write: the existence and revision checks below cannot race with another writer.
 */
final class Statements {
    private Statements() {
    }

    static final String NOTIFY_CHANNEL = "kplane_events";

    static final String LOCK_REVISION = "SELECT rev FROM revision WHERE id = 1 FOR UPDATE";

    static final String NOTIFY = "SELECT pg_notify('" + NOTIFY_CHANNEL + "', rev::text) FROM revision WHERE id = 1";

    /** $1 resource, $2 namespace, $3 name, $4 data, $5 created_ms. */
    static final String CREATE = """
            WITH cur AS (SELECT revision FROM objects WHERE resource = $1 AND namespace = $2 AND name = $3),
            r AS (UPDATE revision SET rev = rev + 1 WHERE id = 1 AND NOT EXISTS (SELECT 1 FROM cur) RETURNING rev),
            ins AS (INSERT INTO objects (resource, namespace, name, revision, data) SELECT $1, $2, $3, rev, $4 FROM r),
            ev AS (INSERT INTO event_log (revision, type, resource, namespace, name, object, created_ms)
                   SELECT rev, 'A', $1, $2, $3, $4, $5 FROM r)
            SELECT (SELECT rev FROM r) AS new_rev, (SELECT revision FROM cur) AS cur_rev, NULL::text AS old_data
            """;

    /** $1 resource, $2 namespace, $3 name, $4 data, $5 created_ms, $6 expected revision (0: any). */
    static final String UPDATE = """
            WITH cur AS (SELECT revision, data FROM objects WHERE resource = $1 AND namespace = $2 AND name = $3),
            r AS (UPDATE revision SET rev = rev + 1
                  WHERE id = 1 AND EXISTS (SELECT 1 FROM cur WHERE $6::bigint = 0 OR revision = $6::bigint) RETURNING rev),
            upd AS (UPDATE objects o SET revision = r.rev, data = $4 FROM r
                    WHERE o.resource = $1 AND o.namespace = $2 AND o.name = $3),
            ev AS (INSERT INTO event_log (revision, type, resource, namespace, name, object, prev_object, prev_revision, created_ms)
                   SELECT r.rev, 'M', $1, $2, $3, $4, cur.data, cur.revision, $5 FROM r, cur)
            SELECT (SELECT rev FROM r) AS new_rev, (SELECT revision FROM cur) AS cur_rev, NULL::text AS old_data
            """;

    /** $1 resource, $2 namespace, $3 name, $4 created_ms, $5 expected revision (0: any). */
    static final String DELETE = """
            WITH cur AS (SELECT revision, data FROM objects WHERE resource = $1 AND namespace = $2 AND name = $3),
            r AS (UPDATE revision SET rev = rev + 1
                  WHERE id = 1 AND EXISTS (SELECT 1 FROM cur WHERE $5::bigint = 0 OR revision = $5::bigint) RETURNING rev),
            del AS (DELETE FROM objects o USING r WHERE o.resource = $1 AND o.namespace = $2 AND o.name = $3),
            ev AS (INSERT INTO event_log (revision, type, resource, namespace, name, object, prev_revision, created_ms)
                   SELECT r.rev, 'D', $1, $2, $3, cur.data, cur.revision, $4 FROM r, cur)
            SELECT (SELECT rev FROM r) AS new_rev, (SELECT revision FROM cur) AS cur_rev, (SELECT data FROM cur) AS old_data
            """;

    static final String GET = "SELECT revision, data FROM objects WHERE resource = $1 AND namespace = $2 AND name = $3";

    static final String CURRENT_REVISION = "SELECT rev FROM revision WHERE id = 1";

    static final String COMPACTED = "SELECT compacted FROM compaction WHERE id = 1";

    /**
     * Event reads return the compacted revision read in the same snapshot as the rows (one row with
     * null event columns when there are none), so a gap caused by compaction is detected rather than
     * silently skipped. Column 0: compacted; then revision, type, resource, namespace, name, object,
     * prev_object, prev_revision.
     */
    private static final String EVENTS_WITH_COMPACTED = "SELECT c.compacted, e.revision, e.type, e.resource, e.namespace,"
            + " e.name, e.object, e.prev_object, e.prev_revision FROM compaction c LEFT JOIN LATERAL ("
            + "SELECT revision, type, resource, namespace, name, object, prev_object, prev_revision FROM event_log WHERE %s"
            + " ORDER BY revision LIMIT %s) e ON true WHERE c.id = 1 ORDER BY e.revision";

    /** Hub read: every event after $1, up to $2 rows. */
    static final String EVENTS_AFTER = EVENTS_WITH_COMPACTED.formatted("revision > $1", "$2");

    /** Watcher catch-up: events of resource $4 in ($1, $2], in namespace $5 ('' = all), up to $3 rows. */
    static final String RESOURCE_EVENTS_BETWEEN = EVENTS_WITH_COMPACTED.formatted(
            "resource = $4 AND revision > $1 AND revision <= $2 AND ($5 = '' OR namespace = $5)", "$3");

    /** Compaction: events created before $1 (epoch ms) are removed. */
    static final String COMPACT_UPTO = "SELECT coalesce(max(revision), 0) FROM event_log WHERE created_ms < $1";
    static final String RAISE_COMPACTED = "UPDATE compaction SET compacted = greatest(compacted, $1) WHERE id = 1 RETURNING compacted";
    static final String DELETE_COMPACTED = "DELETE FROM event_log WHERE revision <= $1";
}
