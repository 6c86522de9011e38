package io.kplane.store.testing;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import io.vertx.pgclient.PgConnectOptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;

/**
 * PostgreSQL in a container, its port bound to a fixed host port so that a stop/start (outage test)
 * keeps the address clients were given.
 */
final class ContainerBackend implements TestPostgres.Backend {
    static final String POSTGRES_IMAGE = "postgres:16-alpine";
    /** What Testcontainers runs: PostgreSQL and its Ryuk clean-up helper. */
    static final java.util.List<String> IMAGES = java.util.List.of(POSTGRES_IMAGE, "testcontainers/ryuk:0.12.0");

    private final PostgreSQLContainer<?> container;
    private final int hostPort;

    private ContainerBackend(PostgreSQLContainer<?> container, int hostPort) {
        this.container = container;
        this.hostPort = hostPort;
    }

    static ContainerBackend startIfDockerAvailable() {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            return null;
        }
        int hostPort = TestPostgres.freePort();
        PostgreSQLContainer<?> container = new PostgreSQLContainer<>(POSTGRES_IMAGE)
                .withUsername("postgres")
                .withPassword("postgres")
                .withDatabaseName("postgres")
                .withCommand("postgres", "-c", "max_connections=300")
                .withCreateContainerCmdModifier(cmd -> cmd.withHostConfig(new HostConfig()
                        .withPortBindings(new PortBinding(Ports.Binding.bindPort(hostPort), new ExposedPort(5432)))));
        container.start();
        return new ContainerBackend(container, hostPort);
    }

    @Override
    public PgConnectOptions options(String database) {
        return new PgConnectOptions()
                .setHost(container.getHost())
                .setPort(hostPort)
                .setUser("postgres")
                .setPassword("postgres")
                .setDatabase(database);
    }

    @Override
    public void stop() {
        DockerClientFactory.instance()
                .client()
                .stopContainerCmd(container.getContainerId())
                .exec();
    }

    @Override
    public void start() {
        DockerClientFactory.instance()
                .client()
                .startContainerCmd(container.getContainerId())
                .exec();
        // Wait until PostgreSQL accepts connections again.
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(() -> {
                    try (var c = java.sql.DriverManager.getConnection(
                            TestPostgres.jdbcUrl(options("postgres")), "postgres", "postgres")) {
                        return c.isValid(5);
                    }
                });
    }

    @Override
    public String describe() {
        return "Testcontainers PostgreSQL " + container.getDockerImageName() + " on port " + hostPort;
    }
}
