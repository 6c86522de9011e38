package io.kplane.store.pg;

/**
 * The store's SQL. Write statements run inside a transaction that first locked the revision row
 * ({@link #LOCK_REVISION}), so under READ COMMITTED each statement's fresh snapshot already contains
 * every earlier write (of other transactions and of earlier statements of this one): the existence
 * and revision checks of {@link #APPLY_ROUND} cannot race with another writer.
 */
final class Statements {
    private Statements() {}

    static final String NOTIFY_CHANNEL = "kplane_events";

    static final String LOCK_REVISION = "SELECT rev FROM revision WHERE id = 1 FOR UPDATE";

    static final String NOTIFY = "SELECT pg_notify('" + NOTIFY_CHANNEL + "', rev::text) FROM revision WHERE id = 1";

    /**
     * Applies a whole round of writes (at most one per key) in ONE statement, so a batch costs one
     * executor start and one counter update instead of one of each per write. Parameters are parallel
     * arrays, one element per write in submission order: $1 kind (A create, M update, D delete),
     * $2 resource, $3 namespace, $4 name, $5 data (null for D), $6 expected revision (0: any);
     * $7 created_ms; $8, $9, $10 the parent's resource, namespace and name for a fenced create (null:
     * no fence). A fenced create passes only if its parent row exists and its JSON has no
     * {@code metadata.deletionTimestamp}, read in this same statement: the fence is exactly as atomic
     * as the existence check (docs/storage.md, "Fenced creates"). Each write's precondition is checked against the state before the statement
     * (keys are distinct, so no write of the round sees another); the writes that pass take
     * consecutive revisions in submission order. One result row per write, in order:
     * new_rev (null if the precondition failed), cur_rev, old_data (the state before an applied update
     * or delete: the writer hands its own events to the watch hub without reading them back),
     * parent_state (null without a fence; L live, T being deleted, X missing).
     */
    static final String APPLY_ROUND =
            """
            WITH ops AS (
                SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[],
                                     $8::text[], $9::text[], $10::text[])
                    WITH ORDINALITY AS t(kind, resource, namespace, name, data, expected, p_resource, p_namespace, p_name, idx)),
            fenced AS (
                SELECT ops.*, CASE WHEN ops.p_name IS NULL THEN NULL
                                   WHEN par.deleting IS NULL THEN 'X' WHEN par.deleting THEN 'T' ELSE 'L' END AS parent_state
                FROM ops LEFT JOIN LATERAL (
                    SELECT (p.data::json -> 'metadata' ->> 'deletionTimestamp') IS NOT NULL AS deleting FROM objects p
                    WHERE ops.p_name IS NOT NULL
                      AND p.resource = ops.p_resource AND p.namespace = ops.p_namespace AND p.name = ops.p_name) par ON true),
            chk AS (
                SELECT ops.*, cur.revision AS cur_rev, cur.data AS cur_data,
                       CASE WHEN ops.kind = 'A' THEN cur.revision IS NULL AND (ops.p_name IS NULL OR ops.parent_state = 'L')
                            ELSE cur.revision IS NOT NULL AND (ops.expected = 0 OR cur.revision = ops.expected) END AS ok
                FROM fenced ops LEFT JOIN LATERAL (
                    SELECT o.revision, o.data FROM objects o
                    WHERE o.resource = ops.resource AND o.namespace = ops.namespace AND o.name = ops.name) cur ON true),
            n AS (SELECT count(*) AS taken FROM chk WHERE ok),
            r AS (UPDATE revision SET rev = rev + n.taken FROM n WHERE id = 1 AND n.taken > 0 RETURNING rev - n.taken AS base),
            w AS (SELECT chk.*, r.base + row_number() OVER (ORDER BY chk.idx) AS new_rev FROM chk, r WHERE chk.ok),
            ins AS (INSERT INTO objects (resource, namespace, name, revision, data)
                    SELECT resource, namespace, name, new_rev, data FROM w WHERE kind = 'A'),
            upd AS (UPDATE objects o SET revision = w.new_rev, data = w.data FROM w
                    WHERE w.kind = 'M' AND o.resource = w.resource AND o.namespace = w.namespace AND o.name = w.name),
            del AS (DELETE FROM objects o USING w
                    WHERE w.kind = 'D' AND o.resource = w.resource AND o.namespace = w.namespace AND o.name = w.name),
            ev AS (INSERT INTO event_log (revision, type, resource, namespace, name, object, prev_object, prev_revision, created_ms)
                   SELECT new_rev, kind, resource, namespace, name, CASE WHEN kind = 'D' THEN cur_data ELSE data END,
                          CASE WHEN kind = 'M' THEN cur_data END, cur_rev, $7 FROM w)
            SELECT w.new_rev, chk.cur_rev, CASE WHEN w.new_rev IS NOT NULL AND chk.kind <> 'A' THEN chk.cur_data END AS old_data,
                   chk.parent_state
            FROM chk LEFT JOIN w ON w.idx = chk.idx ORDER BY chk.idx
            """;

    /**
     * The small-batch path: the database function installed by migration V2
     * ({@code V2__apply_writes_function.sql}) applies a batch of writes, in order, with plain per-kind
     * statements, inside one autocommit call that also locks the revision row, raises it and NOTIFYs.
     * Same parameters as {@link #APPLY_ROUND}; same result rows, plus column 4, base: the revision it
     * locked (the one before the batch).
     */
    static final String APPLY_WRITES =
            "SELECT new_rev, cur_rev, old_data, parent_state, base FROM kplane_apply_writes($1::text[], $2::text[],"
                    + " $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint, $8::text[], $9::text[], $10::text[])";

    static final String GET = "SELECT revision, data FROM objects WHERE resource = $1 AND namespace = $2 AND name = $3";

    static final String CURRENT_REVISION = "SELECT rev FROM revision WHERE id = 1";

    static final String COMPACTED = "SELECT compacted FROM compaction WHERE id = 1";

    /**
     * Event reads return the compacted revision read in the same snapshot as the rows (one row with
     * null event columns when there are none), so a gap caused by compaction is detected rather than
     * silently skipped. Column 0: compacted; then revision, type, resource, namespace, name, object,
     * prev_object, prev_revision.
     */
    private static final String EVENTS_WITH_COMPACTED =
            "SELECT c.compacted, e.revision, e.type, e.resource, e.namespace,"
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

    static final String RAISE_COMPACTED =
            "UPDATE compaction SET compacted = greatest(compacted, $1) WHERE id = 1 RETURNING compacted";
    static final String DELETE_COMPACTED = "DELETE FROM event_log WHERE revision <= $1";
}
