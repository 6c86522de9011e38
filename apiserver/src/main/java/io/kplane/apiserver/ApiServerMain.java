package io.kplane.apiserver;

import io.kplane.api.process.CrashOnError;
import io.kplane.api.util.GoDuration;
import io.kplane.apiserver.auth.TokenAuthenticator;
import io.kplane.store.pg.PgResourceStore;
import io.kplane.store.pg.StoreConfig;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The {@code kplane-apiserver} process. */
@Command(
        name = "kplane-apiserver",
        mixinStandardHelpOptions = true,
        description = "Kubernetes-compatible API server keeping its objects in PostgreSQL.")
public final class ApiServerMain implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServerMain.class);

    @Option(
            names = "--bind",
            defaultValue = "127.0.0.1",
            description = "Address to listen on (default ${DEFAULT-VALUE}).")
    String bind;

    @Option(
            names = "--port",
            defaultValue = "6443",
            description = "Port to listen on (default ${DEFAULT-VALUE}; 0 picks one).")
    int port;

    @Option(
            names = "--db-url",
            description = "External PostgreSQL, e.g. postgresql://user:pw@host:5432/db. "
                    + "Without it an embedded PostgreSQL is started in --data-dir.")
    String dbUrl;

    @Option(
            names = "--data-dir",
            defaultValue = "./.kplane/db",
            description = "Embedded PostgreSQL data directory (default ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(
            names = "--db-port",
            defaultValue = "0",
            description = "Port of the embedded PostgreSQL (default: a free port).")
    int dbPort;

    @Option(
            names = "--compaction-window",
            defaultValue = "5m",
            converter = DurationConverter.class,
            description = "Watch history kept (e.g. 5m, 90s; default ${DEFAULT-VALUE}).")
    Duration compactionWindow;

    @Option(
            names = "--token-auth-file",
            description = "CSV token,user,uid[,\"group1,group2\"]: require a bearer token.")
    Path tokenAuthFile;

    @Option(names = "--tls-cert-file", description = "PEM certificate; with --tls-private-key-file serves HTTPS.")
    Path tlsCertFile;

    @Option(names = "--tls-private-key-file", description = "PEM private key.")
    Path tlsKeyFile;

    @Option(names = "--kubelet-token", description = "Bearer token sent to kubelets when proxying pod logs.")
    String kubeletToken;

    @Option(names = "--kubelet-token-file", description = "File holding the kubelet bearer token.")
    Path kubeletTokenFile;

    @Option(
            names = "--max-requests-inflight",
            defaultValue = "400",
            description = "Non-watch requests served at once; more get 429 (default ${DEFAULT-VALUE}).")
    int maxRequestsInflight;

    @Option(names = "--write-port-file", description = "Write the port actually listened on to this file.")
    Path portFile;

    public static void main(String[] args) {
        CrashOnError.install("apiserver");
        int code = new CommandLine(new ApiServerMain()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        if ((tlsCertFile == null) != (tlsKeyFile == null)) {
            System.err.println("--tls-cert-file and --tls-private-key-file must be given together");
            return 2;
        }
        // the construction's Jackson work, beside Vert.x's set-up and the database open (StartWarmUp)
        StartWarmUp.begin();
        ApiServerOptions options = new ApiServerOptions()
                .bindHost(bind)
                .port(port)
                .maxRequestsInflight(maxRequestsInflight)
                .tls(tlsCertFile, tlsKeyFile);
        if (tokenAuthFile != null) {
            options.authenticator(TokenAuthenticator.fromFile(tokenAuthFile));
        }
        if (kubeletTokenFile != null) {
            options.kubeletToken(Files.readString(kubeletTokenFile).trim());
        } else if (kubeletToken != null) {
            options.kubeletToken(kubeletToken);
        }
        StoreConfig config = dbUrl != null
                ? StoreConfig.external(dbUrl)
                : StoreConfig.embedded(dataDir, dbPort == 0 ? freePort() : dbPort);
        config = config.withCompaction(
                compactionWindow, Duration.ofMillis(Math.max(1000, Math.min(30_000, compactionWindow.toMillis() / 5))));
        // read connections: the launcher's stack sets fewer (deploy/bin/kplane-component; each is a PostgreSQL backend)
        config = config.withPoolSize(Integer.getInteger("kplane.store.readPoolSize", config.poolSize()));

        Vertx vertx = Vertx.vertx();
        // Up at once, answering 503 until the database is there (as kube-apiserver waits for etcd):
        // exiting would only have the launcher or a supervisor restart it into the same wait.
        // The one listening socket is bound now and never closed: its handler is swapped for the API
        // router once the store is open, so clients meet no refused connection in between.
        StoreWaitHandler waiting = new StoreWaitHandler(describe(config));
        ApiListener listener = ApiListener.bind(vertx, options, () -> waiting).await(60, TimeUnit.SECONDS);
        if (portFile != null) {
            Files.writeString(portFile, Integer.toString(listener.port()));
        }
        LOG.info("listening on port {}, opening the database {}", listener.port(), describe(config));
        PgResourceStore store = openWhenReachable(vertx, config, waiting);
        waiting.lastError("database open, starting");
        ApiServer server = ApiServer.serveOn(listener, vertx, store, options).await(60, TimeUnit.SECONDS);
        LOG.info("database open: serving on port {}", server.port());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            LOG.info("shutting down");
                            server.close();
                            store.close();
                            try {
                                vertx.close().await(20, TimeUnit.SECONDS);
                            } catch (Exception ignored) {
                                // exiting anyway
                            }
                            stopped.countDown();
                        },
                        "apiserver-shutdown"));
        stopped.await();
        return 0;
    }

    /**
     * Opens the store, retrying until the database answers: every 100 ms while starting, then with a
     * capped doubling back-off ({@link DatabaseOpenRetry}). While starting, one log line per distinct
     * reason rather than one per attempt.
     */
    private static PgResourceStore openWhenReachable(Vertx vertx, StoreConfig config, StoreWaitHandler waiting)
            throws InterruptedException {
        DatabaseOpenRetry retry = new DatabaseOpenRetry();
        long began = System.nanoTime();
        String lastWhy = null;
        while (true) {
            try {
                return PgResourceStore.open(vertx, config).await(120, TimeUnit.SECONDS);
            } catch (Exception e) { // await rethrows the failure as is, checked ones too (ConnectException)
                String why = rootMessage(e);
                waiting.lastError(why);
                Duration since = Duration.ofNanos(System.nanoTime() - began);
                Duration pause = retry.next(since);
                if (!retry.inStartWindow(since)) {
                    LOG.warn("database not usable yet, retrying in {} ms: {}", pause.toMillis(), why);
                } else if (!why.equals(lastWhy)) {
                    LOG.warn("database not usable yet, retrying every {} ms while starting: {}", pause.toMillis(), why);
                }
                lastWhy = why;
                Thread.sleep(pause.toMillis());
            }
        }
    }

    /** The database without its password, for messages. */
    private static String describe(StoreConfig config) {
        var o = config.connectOptions();
        return o == null
                ? "(embedded PostgreSQL in " + config.embeddedDataDir() + ")"
                : o.getHost() + ":" + o.getPort() + "/" + o.getDatabase();
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Picocli adapter for {@link GoDuration}: flags take Go durations as Kubernetes' do ({@code 1m30s}). */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return GoDuration.parseNonNegative(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
