-- The writer's path for small batches (docs/storage.md, "Small batches"): ONE call, in autocommit,
-- does what the writer's transaction does for a batch (BEGIN; lock the revision row;
-- Statements.APPLY_ROUND per round; NOTIFY; COMMIT), with plain per-write statements whose plans
-- PL/pgSQL caches in the session. The ten-CTE APPLY_ROUND costs ~2.5 ms of server CPU per
-- execution whatever its size; these statements cost a fraction of that per write, so a batch of a
-- few writes is much cheaper here, and a call is one statement: one round trip, no BEGIN/COMMIT.
--
-- Same parameters as APPLY_ROUND, parallel arrays in submission order: kind (A create, M update,
-- D delete), resource, namespace, name, data (null for D), expected revision (0: any); created_ms;
-- the parent's resource, namespace and name for a fenced create (null: no fence).
-- Same result rows, one per write in order: new_rev (null if its precondition failed), cur_rev,
-- old_data (the state before an applied update or delete), parent_state (null without a fence;
-- L live, T being deleted, X missing); plus base, the revision the call locked (the batch's
-- previous revision).
--
-- Why the semantics equal APPLY_ROUND's rounds: the function is VOLATILE, so under READ COMMITTED
-- each statement in it takes a fresh snapshot that contains every transaction committed before the
-- revision lock was granted and every earlier write of this call. The writes are applied one after
-- another in submission order, each checked against the state its predecessors left, which is what
-- the writer's rounds emulate (a round holds no repeated key and no fenced create after a write of
-- its parent, so checking a round's writes together against the state before it gives the same
-- answers). Revisions are consecutive from the locked one, taken only by writes that pass; the
-- counter is raised once and NOTIFY sent only when some write passed. A failed precondition is a
-- result row, never an SQL error; an SQL error (a bad value) aborts the whole call, like the batch.
CREATE FUNCTION kplane_apply_writes(
    a_kinds text[], a_resources text[], a_namespaces text[], a_names text[], a_data text[], a_expected bigint[],
    a_created_ms bigint, a_p_resources text[], a_p_namespaces text[], a_p_names text[])
RETURNS TABLE (new_rev bigint, cur_rev bigint, old_data text, parent_state text, base bigint)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_locked bigint;
    v_rev bigint;
    v_cur_rev bigint;
    v_cur_data text;
    v_deleting boolean;
    v_ok boolean;
BEGIN
    SELECT r.rev INTO v_locked FROM revision r WHERE r.id = 1 FOR UPDATE;
    v_rev := v_locked;
    base := v_locked;
    FOR i IN 1 .. coalesce(array_length(a_kinds, 1), 0) LOOP
        v_cur_data := NULL;
        parent_state := NULL;
        IF a_kinds[i] = 'A' THEN
            SELECT o.revision INTO v_cur_rev FROM objects o
                WHERE o.resource = a_resources[i] AND o.namespace = a_namespaces[i] AND o.name = a_names[i];
            IF a_p_names[i] IS NOT NULL THEN
                SELECT (p.data::json -> 'metadata' ->> 'deletionTimestamp') IS NOT NULL INTO v_deleting FROM objects p
                    WHERE p.resource = a_p_resources[i] AND p.namespace = a_p_namespaces[i] AND p.name = a_p_names[i];
                parent_state := CASE WHEN NOT FOUND THEN 'X' WHEN v_deleting THEN 'T' ELSE 'L' END;
            END IF;
            v_ok := v_cur_rev IS NULL AND (parent_state IS NULL OR parent_state = 'L');
        ELSE
            SELECT o.revision, o.data INTO v_cur_rev, v_cur_data FROM objects o
                WHERE o.resource = a_resources[i] AND o.namespace = a_namespaces[i] AND o.name = a_names[i];
            v_ok := v_cur_rev IS NOT NULL AND (a_expected[i] = 0 OR v_cur_rev = a_expected[i]);
        END IF;
        cur_rev := v_cur_rev;
        IF v_ok THEN
            v_rev := v_rev + 1;
            IF a_kinds[i] = 'A' THEN
                INSERT INTO objects (resource, namespace, name, revision, data)
                    VALUES (a_resources[i], a_namespaces[i], a_names[i], v_rev, a_data[i]);
                INSERT INTO event_log (revision, type, resource, namespace, name, object, prev_object, prev_revision, created_ms)
                    VALUES (v_rev, 'A', a_resources[i], a_namespaces[i], a_names[i], a_data[i], NULL, NULL, a_created_ms);
                old_data := NULL;
            ELSIF a_kinds[i] = 'M' THEN
                UPDATE objects o SET revision = v_rev, data = a_data[i]
                    WHERE o.resource = a_resources[i] AND o.namespace = a_namespaces[i] AND o.name = a_names[i];
                INSERT INTO event_log (revision, type, resource, namespace, name, object, prev_object, prev_revision, created_ms)
                    VALUES (v_rev, 'M', a_resources[i], a_namespaces[i], a_names[i], a_data[i], v_cur_data, v_cur_rev, a_created_ms);
                old_data := v_cur_data;
            ELSE
                DELETE FROM objects o
                    WHERE o.resource = a_resources[i] AND o.namespace = a_namespaces[i] AND o.name = a_names[i];
                INSERT INTO event_log (revision, type, resource, namespace, name, object, prev_object, prev_revision, created_ms)
                    VALUES (v_rev, 'D', a_resources[i], a_namespaces[i], a_names[i], v_cur_data, NULL, v_cur_rev, a_created_ms);
                old_data := v_cur_data;
            END IF;
            new_rev := v_rev;
        ELSE
            new_rev := NULL;
            old_data := NULL;
        END IF;
        RETURN NEXT;
    END LOOP;
    IF v_rev > v_locked THEN
        UPDATE revision r SET rev = v_rev WHERE r.id = 1;
        PERFORM pg_notify('kplane_events', v_rev::text);
    END IF;
END
$$;
