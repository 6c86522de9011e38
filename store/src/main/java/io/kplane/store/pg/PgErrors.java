package io.kplane.store.pg;

import io.kplane.store.StoreException;
import io.vertx.pgclient.PgException;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/**
 * Maps database client failures onto the store's error vocabulary.
 *
 * <p>Only failures that say "the database cannot serve now, try again later" become
 * {@link StoreException.Unavailable} (503): the connection could not be made or was lost, the
 * server is shutting down or out of resources (disk full, too many connections), or an
 * operating-system error below it (a read-only data directory). A data exception (SQLSTATE class
 * 22) is the request's fault (400). Every other refusal (a syntax error, a missing table, a
 * violated constraint the store's own checks should have prevented) is a bug, not an outage:
 * {@link StoreException.Internal}, answered as a logged 500, so it is never disguised as a
 * transient outage that clients retry forever.
 */
final class PgErrors {
    private PgErrors() {}

    /** Store errors pass through; the rest are classified as described on the class. */
    static StoreException toStoreException(Throwable error) {
        if (error instanceof StoreException se) {
            return se;
        }
        if (error instanceof PgException pg
                && pg.getSqlState() != null
                && pg.getSqlState().startsWith("22")) {
            // Data exception (e.g. a NUL character in a text value): the request's fault, not the database's.
            return new StoreException.BadRequest("invalid data: " + pg.getErrorMessage());
        }
        if (isConnectionFailure(error)) {
            return new StoreException.Unavailable(unavailableMessage(error), error);
        }
        return new StoreException.Internal("database error: " + describe(error), error);
    }

    /**
     * True when the failure means the database could not serve the statement now (rather than that
     * the statement is wrong): see {@link #isUnavailableState(String)} for SQLSTATEs; a failure
     * without a SQLSTATE counts when it is a network/client-level one.
     */
    static boolean isConnectionFailure(Throwable error) {
        if (error instanceof PgException pg) {
            return isUnavailableState(pg.getSqlState());
        }
        return error instanceof IOException
                || error instanceof TimeoutException
                || error instanceof io.vertx.core.VertxException
                || error instanceof io.netty.channel.ChannelException
                || (error.getCause() != null && error.getCause() != error && isConnectionFailure(error.getCause()));
    }

    /**
     * SQLSTATEs that mean "unavailable, retry later": class 08 (connection exception), 53
     * (insufficient resources: disk full, out of memory, too many connections), 57P0x (admin or crash
     * shutdown, cannot connect now), 58 (system error, e.g. an I/O error on a read-only data
     * directory), and the server-side timeouts the store sets on its own sessions (57014
     * statement_timeout / query_canceled, 55P03 lock_timeout, 25P03 idle-in-transaction timeout), and
     * 25006 read_only_sql_transaction: PostgreSQL refuses writes (a read-only database or a standby, as
     * an operator makes it while its data directory cannot take writes), which is an outage of writes
     * that ends when the operator fixes it, not a bug of the statement.
     */
    static boolean isUnavailableState(String state) {
        if (state == null) {
            return false;
        }
        return state.startsWith("08")
                || state.startsWith("53")
                || state.startsWith("57P")
                || state.startsWith("58")
                || state.equals("57014")
                || state.equals("55P03")
                || state.equals("25P03")
                || state.equals("25006");
    }

    /** True for the faults of PostgreSQL's storage an operator fixes: disk full, read-only, an I/O error. */
    static boolean isStorageFault(Throwable error) {
        if (!(error instanceof PgException pg) || pg.getSqlState() == null) {
            return error.getCause() != null && error.getCause() != error && isStorageFault(error.getCause());
        }
        String state = pg.getSqlState();
        return state.equals("53100") || state.equals("25006") || state.startsWith("58");
    }

    /**
     * The 503's message: what an operator must fix for the storage faults they can fix (disk full, a
     * read-only database, an I/O error on the data directory), then PostgreSQL's own words.
     */
    static String unavailableMessage(Throwable error) {
        String state = error instanceof PgException pg ? pg.getSqlState() : null;
        String what;
        if ("53100".equals(state)) {
            what = "database disk full, writes are refused until space is freed";
        } else if ("25006".equals(state)) {
            what = "database is read-only, writes are refused until it accepts writes again";
        } else if (state != null && state.startsWith("58")) {
            what = "database I/O error (is its data directory read-only or failing?)";
        } else {
            what = "database unavailable";
        }
        return what + ": " + describe(error);
    }

    static String describe(Throwable error) {
        String message = error instanceof PgException pg
                ? pg.getErrorMessage() + " (SQLSTATE " + pg.getSqlState() + ")"
                : error.getMessage();
        return error.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
