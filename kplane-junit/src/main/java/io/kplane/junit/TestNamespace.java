package io.kplane.junit;

import java.util.ArrayList;
import java.util.List;

/**
 * One test's namespace and the clients made for it: created before the test, and on close the clients
 * are closed and the namespace deleted (its objects go with it).
 */
final class TestNamespace implements AutoCloseable {
    private final KplaneCluster cluster;
    private final KplaneNamespace info;
    private final long createMillis;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private Object fabric8Client;
    private Object officialClient;
    private long deleteMillis;
    private boolean closed;

    private TestNamespace(KplaneCluster cluster, KplaneNamespace info, long createMillis) {
        this.cluster = cluster;
        this.info = info;
        this.createMillis = createMillis;
    }

    static TestNamespace create(KplaneCluster cluster, String name) {
        long start = System.nanoTime();
        cluster.http()
                .post(
                        "/api/v1/namespaces",
                        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name
                                + "\",\"labels\":{\"app.kubernetes.io/managed-by\":\"kplane-junit\"}}}");
        KplaneNamespace info = new KplaneNamespace(
                name,
                NamespaceKubeconfig.write(cluster.stateDir().resolve("test-kubeconfigs"), cluster.server(), name));
        return new TestNamespace(cluster, info, (System.nanoTime() - start) / 1_000_000);
    }

    KplaneNamespace info() {
        return info;
    }

    synchronized Object fabric8Client() {
        if (fabric8Client == null) {
            var client = Fabric8Clients.create(info);
            closeables.add(client);
            fabric8Client = client;
        }
        return fabric8Client;
    }

    synchronized Object officialClient() {
        if (officialClient == null) {
            officialClient = OfficialClients.create(info);
        }
        return officialClient;
    }

    long createMillis() {
        return createMillis;
    }

    long deleteMillis() {
        return deleteMillis;
    }

    /** Idempotent: the extension closes it after the test, and JUnit's store may close it again. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception e) {
                // a client that fails to close must not keep the namespace
            }
        }
        long start = System.nanoTime();
        cluster.http().delete("/api/v1/namespaces/" + info.name());
        deleteMillis = (System.nanoTime() - start) / 1_000_000;
    }
}
