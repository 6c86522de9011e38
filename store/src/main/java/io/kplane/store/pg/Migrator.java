package io.kplane.store.pg;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the schema up to date at start-up. Migrations are the ordered SQL resources listed in
 * {@code io/kplane/store/migration/index.txt} ({@code V<n>__<what>.sql}); each applied version is
 * recorded in {@code schema_version}. A transaction-scoped advisory lock makes concurrent start-ups
 * (two API servers on one database) safe: the second waits, then finds nothing left to do.
 */
final class Migrator {
    private static final Logger LOG = LoggerFactory.getLogger(Migrator.class);
    private static final String BASE = "/io/kplane/store/migration/";
    private static final long ADVISORY_LOCK_KEY = 0x6b706c616e65L; // "kplane"

    record Migration(int version, String name, String sql) {}

    private Migrator() {}

    static Future<Integer> migrate(Pool pool) {
        List<Migration> migrations = load();
        return pool.withTransaction(conn -> conn.query("SET LOCAL client_min_messages = warning")
                .execute()
                .compose(v -> conn.query("SELECT pg_advisory_xact_lock(" + ADVISORY_LOCK_KEY + ")")
                        .execute())
                .compose(v -> conn.query("CREATE TABLE IF NOT EXISTS schema_version (version int PRIMARY KEY, "
                                + "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
                        .execute())
                .compose(v -> conn.query("SELECT coalesce(max(version), 0) FROM schema_version")
                        .execute())
                .compose(rows -> {
                    int current = rows.iterator().next().getInteger(0);
                    Future<Integer> chain = Future.succeededFuture(current);
                    for (Migration m : migrations) {
                        if (m.version() > current) {
                            chain = chain.compose(v -> apply(conn, m));
                        }
                    }
                    return chain;
                }));
    }

    private static Future<Integer> apply(SqlConnection conn, Migration m) {
        LOG.info("applying schema migration V{} {}", m.version(), m.name());
        return conn.query(m.sql())
                .execute()
                .compose(v -> conn.preparedQuery("INSERT INTO schema_version (version, name) VALUES ($1, $2)")
                        .execute(Tuple.of(m.version(), m.name())))
                .map(v -> m.version());
    }

    static List<Migration> load() {
        List<Migration> result = new ArrayList<>();
        int expected = 1;
        for (String file : read("index.txt").split("\\R", -1)) {
            file = file.trim();
            if (file.isEmpty()) {
                continue;
            }
            int sep = file.indexOf("__");
            int version = Integer.parseInt(file.substring(1, sep));
            if (version != expected++) {
                throw new IllegalStateException("migrations must be numbered 1, 2, 3...: " + file);
            }
            result.add(new Migration(version, file.substring(sep + 2, file.length() - ".sql".length()), read(file)));
        }
        return result;
    }

    private static String read(String name) {
        try (InputStream in = Migrator.class.getResourceAsStream(BASE + name)) {
            if (in == null) {
                throw new IllegalStateException("missing migration resource " + BASE + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
