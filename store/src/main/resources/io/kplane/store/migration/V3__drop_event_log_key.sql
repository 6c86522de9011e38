-- event_log_key (resource, namespace, name, revision) was the widest of the four index entries every
-- write makes (2.3 MB against the primary key's 0.7 MB for the same 35,000 events), and no read needs
-- it: the hub reads by revision (primary key), a watcher's catch-up by (resource, revision)
-- (event_log_resource), and a continue page's "later" CTE takes the events after its revision, which
-- the primary key or event_log_resource find directly (with event_log_key the planner walked the
-- resource's whole key range: 18.7 ms against 0.6 ms for 100 events after R among 35,000).
-- Measured: docs/performance.md, "Create throughput: one index entry fewer per write".
DROP INDEX IF EXISTS event_log_key;
