-- The one global revision counter. Every write transaction locks this row first and holds the lock
-- until COMMIT, so revisions are assigned and become visible strictly in order (see docs/storage.md).
CREATE TABLE revision (
    id  int    PRIMARY KEY CHECK (id = 1),
    rev bigint NOT NULL
);
INSERT INTO revision (id, rev) VALUES (1, 0);

-- Highest revision removed from event_log: a watch or continue token below it is Expired.
CREATE TABLE compaction (
    id        int    PRIMARY KEY CHECK (id = 1),
    compacted bigint NOT NULL
);
INSERT INTO compaction (id, compacted) VALUES (1, 0);

-- Current state. data is the object's JSON as text (key order preserved) without
-- metadata.resourceVersion, which is stamped from the revision column on read.
CREATE TABLE objects (
    resource  text   NOT NULL,
    namespace text   NOT NULL,
    name      text   NOT NULL,
    revision  bigint NOT NULL,
    data      text   NOT NULL,
    PRIMARY KEY (resource, namespace, name)
);

-- One row per create/update/delete. object: state after the write (DELETED: last state);
-- prev_object: state before an update (for a delete it equals object, so it is not stored twice).
CREATE TABLE event_log (
    revision      bigint   PRIMARY KEY,
    type          char(1)  NOT NULL, -- A(dded), M(odified), D(eleted)
    resource      text     NOT NULL,
    namespace     text     NOT NULL,
    name          text     NOT NULL,
    object        text     NOT NULL,
    prev_object   text,
    prev_revision bigint,
    created_ms    bigint   NOT NULL
);
-- Watch catch-up by resource, and continue-page snapshots (earliest change of a key after R).
CREATE INDEX event_log_resource ON event_log (resource, revision);
CREATE INDEX event_log_key ON event_log (resource, namespace, name, revision);
