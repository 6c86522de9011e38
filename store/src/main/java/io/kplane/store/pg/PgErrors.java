package io.kplane.store.pg;

import io.kplane.store.StoreException;
import io.vertx.pgclient.PgException;

import java.io.IOException;

/** Maps database client failures onto the store's error vocabulary. */
final class PgErrors {
    private PgErrors() {
    }

    /** Store errors pass through; connection-level failures become {@link StoreException.Unavailable}. */
    static StoreException toStoreException(Throwable error) {
        if (error instanceof StoreException se) {
            return se;
        }
        if (error instanceof PgException pg && pg.getSqlState() != null && pg.getSqlState().startsWith("22")) {
            // Data exception (e.g. a NUL character in a text value): the request's fault, not the database's.
            return new StoreException.BadRequest("invalid data: " + pg.getErrorMessage());
        }
        return new StoreException.Unavailable("database unavailable: " + describe(error), error);
    }

    /** True when the failure means the database could not be reached (rather than a bad statement). */
    static boolean isConnectionFailure(Throwable error) {
        if (error instanceof PgException pg) {
            String state = pg.getSqlState();
            // 08: connection exception; 57P0x: admin/crash shutdown, cannot connect now; 53: resources.
            return state != null && (state.startsWith("08") || state.startsWith("57P") || state.startsWith("53"));
        }
        return error instanceof IOException
                || error instanceof io.vertx.core.VertxException
                || error instanceof io.netty.channel.ChannelException
                || (error.getCause() != null && error.getCause() != error && isConnectionFailure(error.getCause()));
    }

    static String describe(Throwable error) {
        String message = error.getMessage();
        return error.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
