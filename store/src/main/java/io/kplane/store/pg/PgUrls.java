package io.kplane.store.pg;

import io.vertx.pgclient.PgConnectOptions;

/** Turns the URL forms users give (--db-url) into connection options. */
public final class PgUrls {
    private PgUrls() {}

    /**
     * Accepts {@code postgresql://user:pw@host:port/db?...}, {@code postgres://...} and the JDBC form
     * {@code jdbc:postgresql://host:port/db?user=u&password=p}.
     */
    public static PgConnectOptions parse(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("empty PostgreSQL URL");
        }
        String uri = url.trim();
        if (uri.startsWith("jdbc:")) {
            uri = uri.substring("jdbc:".length());
        }
        if (!uri.startsWith("postgresql://") && !uri.startsWith("postgres://")) {
            throw new IllegalArgumentException("not a PostgreSQL URL (expected postgresql://...): " + url);
        }
        try {
            return PgConnectOptions.fromUri(uri);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid PostgreSQL URL " + url + ": " + e.getMessage(), e);
        }
    }

    /** The JDBC-style URL of the given options (for logs and other tools; no password). */
    public static String toJdbcUrl(PgConnectOptions o) {
        return "jdbc:postgresql://" + o.getHost() + ":" + o.getPort() + "/" + o.getDatabase() + "?user=" + o.getUser();
    }
}
