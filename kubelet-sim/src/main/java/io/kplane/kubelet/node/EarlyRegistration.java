package io.kplane.kubelet.node;

import io.kplane.api.util.DaemonThreads;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClientException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Node object created (or read, on a restart) while the kubelet still awaits the cluster Clock. The
 * object needs no cluster time (its times are all in its status, which the first heartbeat posts once the
 * Clock is known), so its create (and, when it exists, the read) need not follow the Clock's list: beside
 * an API server that is itself starting they were two of the first, cold requests on the kubelet's path
 * from "API serving" to ready (docs/performance.md, "the kubelet after the API serves").
 *
 * <p>Retried every 200 ms while the API server cannot be reached or answers 503 (as the Clock's own list
 * while it was never listed, {@code ReflectorOptions.startupRetry}), until {@link #finish()}: then the
 * heartbeat registers the Node itself if this did not get through, as it always did.
 */
public final class EarlyRegistration {
    private static final Logger log = LoggerFactory.getLogger(EarlyRegistration.class);
    static final Duration RETRY = Duration.ofMillis(200);

    private final NodeAgent node;
    private final String nodeName;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread thread;

    private EarlyRegistration(NodeAgent node, String nodeName) {
        this.node = node;
        this.nodeName = nodeName;
        this.thread = DaemonThreads.newThread("node-register-early-" + nodeName, this::run);
    }

    /** Starts creating (or reading) the Node object in the background. */
    public static EarlyRegistration start(NodeAgent node, String nodeName) {
        EarlyRegistration r = new EarlyRegistration(node, nodeName);
        r.thread.start();
        return r;
    }

    private void run() {
        boolean waitLogged = false;
        try {
            while (finished.getCount() > 0) {
                try {
                    node.registerObject();
                    return;
                } catch (KubeClientException e) {
                    if (!worthRetrying(e)) {
                        log.info(
                                "node {}: not registered before the cluster clock ({}); the heartbeat retries",
                                nodeName,
                                e.getMessage());
                        return;
                    }
                    if (!waitLogged) {
                        // expected while the API server starts beside this kubelet: said once, not per retry
                        waitLogged = true;
                        log.info(
                                "node {}: registering once the API server answers ({}); retrying every {} ms",
                                nodeName,
                                e.getMessage(),
                                RETRY.toMillis());
                    }
                }
                if (finished.await(RETRY.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Unreachable, or answering that it cannot serve yet; any other answer is the heartbeat's to handle. */
    private static boolean worthRetrying(KubeClientException e) {
        return !(e instanceof ApiException api) || api.code() == 503 || api.isTooManyRequests();
    }

    /**
     * Stops retrying and waits for an attempt in flight to end, so that the heartbeat that follows
     * neither repeats nor races it.
     */
    public void finish() throws InterruptedException {
        finished.countDown();
        thread.join();
    }
}
