package io.kplane.store;

/**
 * The store's error vocabulary; the API server maps each to a Kubernetes Status
 * (404 NotFound, 409 AlreadyExists, 409 Conflict, 410 Expired, 400 BadRequest, 503 ServiceUnavailable,
 * 500 InternalError).
 */
public abstract class StoreException extends RuntimeException {
    protected StoreException(String message, Throwable cause) {
        super(message, cause, false, false);
    }

    public static final class NotFound extends StoreException {
        public NotFound(ResourceKey key) {
            super("not found: " + key, null);
        }
    }

    public static final class AlreadyExists extends StoreException {
        public AlreadyExists(ResourceKey key) {
            super("already exists: " + key, null);
        }
    }

    /** The object's stored revision differs from the one the caller expected. */
    public static final class Conflict extends StoreException {
        private final long actualRevision;

        public Conflict(ResourceKey key, long expected, long actual) {
            super("revision conflict on " + key + ": expected " + expected + ", stored " + actual, null);
            this.actualRevision = actual;
        }

        public long actualRevision() {
            return actualRevision;
        }
    }

    /** The requested revision has been compacted ("too old resource version"). */
    public static final class Expired extends StoreException {
        private final long requested;
        private final long compacted;

        public Expired(long requested, long compacted) {
            super("too old resource version: " + requested + " (" + compacted + ")", null);
            this.requested = requested;
            this.compacted = compacted;
        }

        public long requested() {
            return requested;
        }

        public long compacted() {
            return compacted;
        }
    }

    /** The request itself is malformed (e.g. a continue token that is not one of ours): 400 BadRequest. */
    public static final class BadRequest extends StoreException {
        public BadRequest(String message) {
            super(message, null);
        }
    }

    /** The database cannot be reached; the request may be retried later. */
    public static final class Unavailable extends StoreException {
        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The database refused a statement for a reason that is neither the request's fault nor an outage
     * (e.g. a missing table, a violated constraint the store should have prevented): a bug or a
     * damaged schema. Retrying will not help; the server answers 500 and logs it.
     */
    public static final class Internal extends StoreException {
        public Internal(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Too many writes are already waiting: refused at once, to be retried after {@link #retryAfterSeconds()}. */
    public static final class Overloaded extends StoreException {
        private final int retryAfterSeconds;

        public Overloaded(String message, int retryAfterSeconds) {
            super(message, null);
            this.retryAfterSeconds = retryAfterSeconds;
        }

        public int retryAfterSeconds() {
            return retryAfterSeconds;
        }
    }

    /** A fenced create's parent does not exist (the API server answers the namespace's 404). */
    public static final class ParentMissing extends StoreException {
        private final ResourceKey parent;

        public ParentMissing(ResourceKey parent) {
            super("parent not found: " + parent, null);
            this.parent = parent;
        }

        public ResourceKey parent() {
            return parent;
        }
    }

    /** A fenced create's parent is being deleted (the API server answers 403 NamespaceTerminating). */
    public static final class ParentTerminating extends StoreException {
        private final ResourceKey parent;

        public ParentTerminating(ResourceKey parent) {
            super("parent is being deleted: " + parent, null);
            this.parent = parent;
        }

        public ResourceKey parent() {
            return parent;
        }
    }
}
