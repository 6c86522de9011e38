package io.kplane.controllers.runtime;

import io.kplane.api.util.DaemonThreads;
import io.kplane.client.KubeClient;
import io.kplane.client.config.KubeconfigResolver;
import io.kplane.client.events.ApiEventRecorder;
import io.kplane.client.leaderelection.LeaderCallbacks;
import io.kplane.client.leaderelection.LeaderElectionConfig;
import io.kplane.client.leaderelection.LeaderElector;
import io.kplane.client.lens.Lens;
import io.kplane.client.time.Clock;
import io.kplane.client.time.ClusterClockFollower;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link ControllerComponent} as an OS process: connects to the API server, serves
 * {@code /healthz} and {@code /metrics}, campaigns for the component's Lease (unless
 * {@code --leader-elect=false}), and runs the controller only while leading. Losing the lease (the API
 * server gone for longer than the renew deadline) stops the workers and drops the informers' cache,
 * and the process campaigns again, waiting for the API server instead of exiting into restarts;
 * SIGTERM stops the workers (a leader also releases the lease, as client-go's {@code ReleaseOnCancel},
 * so a standby takes over at once) and exits with 0, leader or standby alike.
 */
public final class ControllerProcess {
    private static final Logger log = LoggerFactory.getLogger(ControllerProcess.class);

    /** How long a starting term waits for the cluster Clock before it goes on with real time. */
    private static final Duration CLOCK_SYNC_TIMEOUT = Duration.ofSeconds(60);

    private final ControllerComponent component;
    private final ControllerOptions options;
    private final Clock clock;
    private final CountDownLatch finished = new CountDownLatch(1);
    /** Counted down once a shutdown closed the endpoints: main waits for it before it exits. */
    private final CountDownLatch closed = new CountDownLatch(1);

    private final AtomicBoolean healthy = new AtomicBoolean(true);
    /** The controller's current term; {@code sessionEnded} fences late starts of a term that is over. */
    private final Object sessionLock = new Object();

    private LeadingSession session;
    private boolean sessionEnded;
    private volatile LeaderElector elector;
    private volatile HealthServer health;
    private volatile ApiEventRecorder events;
    private volatile int exitCode;
    private volatile ClusterClockFollower follower;

    public ControllerProcess(ControllerComponent component, ControllerOptions options, Clock clock) {
        this.component = component;
        this.options = options;
        this.clock = clock;
    }

    /** Builds the client from {@code --kubeconfig}/{@code --server}/{@code --token} with kubectl's rules. */
    public static KubeClient connect(ControllerOptions options) {
        return KubeClient.create(KubeconfigResolver.system()
                .resolve(
                        options.server,
                        options.token,
                        options.kubeconfig == null ? null : options.kubeconfig.toString()));
    }

    /** Runs until SIGTERM (or leadership loss); returns the process exit code. */
    public int run() throws Exception {
        KubeClient client = connect(options);
        String identity = ProcessIdentity.current();
        PrometheusMeterRegistry registry = HealthServer.newRegistry();
        RestClientMetrics.bind(client, registry);
        health = HealthServer.start(
                options.healthBind, options.healthPort, registry, healthy::get, this::informerChecks);
        // Cluster behaviour (schedules, back-offs, deadlines, event times) follows the cluster Clock;
        // leader election and the informers' reconnects stay on the wall clock: whether a process is
        // alive and reachable is a fact about real time, and a frozen cluster clock must not let a dead
        // leader keep its lease or stop a live one from renewing (docs/clock.md).
        // Nothing before the election may wait for the API server (as kube-controller-manager serves
        // /healthz at once): the clock is followed in the background and awaited when a term starts.
        if (clock == Clock.system()) {
            follower = ClusterClockFollower.startInBackground(client, component.name() + "-" + identity);
        }
        Clock cluster = follower == null ? clock : follower.clock();
        events = new ApiEventRecorder(client, component.name(), identity, cluster);
        Lens lens = ComponentLens.start(component.name(), identity, cluster, client, health, registry, options);
        log.info(
                "{} starting: server {}, identity {}, health port {}",
                component.name(),
                client.config().server(),
                identity,
                health.port());
        Runtime.getRuntime().addShutdownHook(new Thread(this::shutdown, "shutdown"));
        TermSignal.onTerm(this::shutdown);

        ControllerContext ctx = new ControllerContext(
                client, null, cluster, events, registry, options.workersOr(component.defaultWorkers()), identity, lens);
        if (options.leaderElect) {
            String leaseName = options.leaseName == null ? component.name() : options.leaseName;
            LeaderElectionConfig config = new LeaderElectionConfig(
                    options.leaseNamespace,
                    leaseName,
                    identity,
                    options.leaseDuration,
                    options.renewDeadline,
                    options.retryPeriod,
                    true);
            // upstream's leader_election_master_status{name}: 1 while this process leads
            java.util.concurrent.atomic.AtomicInteger leading = new java.util.concurrent.atomic.AtomicInteger();
            io.micrometer.core.instrument.Gauge.builder("leader_election_master_status", leading, l -> l.get())
                    .description(
                            "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease.")
                    .tag("name", leaseName)
                    .register(registry);
            elector = new LeaderElector(client, config, clock, new LeaderCallbacks() {
                @Override
                public void onStartedLeading() {
                    leading.set(1);
                    startController(ctx);
                }

                @Override
                public void onStoppedLeading() {
                    leading.set(0);
                    stopController();
                    if (!shuttingDown) {
                        log.warn(
                                "{} lost its lease {}/{}; workers stopped, campaigning again",
                                component.name(),
                                options.leaseNamespace,
                                leaseName);
                    }
                }
            });
            // Campaign until SIGTERM. A lost lease (e.g. the API server unreachable for longer than the
            // renew deadline) stops this term's workers and informers and campaigns again with a fresh
            // cache, so the process waits for the API server instead of exiting into a restart loop.
            // The process ends when the election ends, whether this process led or only waited as a
            // standby (a standby stopped by SIGTERM never leads, so onStoppedLeading never runs for it).
            DaemonThreads.newThread("leader-election-" + leaseName, () -> {
                        try {
                            while (!shuttingDown) {
                                elector.run();
                                newTerm();
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } finally {
                            finished.countDown();
                        }
                    })
                    .start();
        } else {
            startController(ctx);
        }
        finished.await();
        if (shuttingDown) {
            closed.await(); // let the SIGTERM handler finish its clean-up before main exits the JVM
        }
        return exitCode;
    }

    private volatile boolean shuttingDown;

    private void startController(ControllerContext base) {
        LeadingSession session;
        synchronized (sessionLock) {
            // the elector interrupts a term's callback thread before it ends the term: a callback that
            // runs this late belongs to a term that is over (maybe even after newTerm() reopened the fence)
            if (sessionEnded || Thread.currentThread().isInterrupted()) {
                return; // leadership was lost before this callback ran
            }
            session = new LeadingSession(component, clock);
            this.session = session;
        }
        try {
            ClusterClockFollower f = follower;
            if (f != null) {
                f.awaitFirstState(CLOCK_SYNC_TIMEOUT); // workers never start on wall time and then jump
            }
            session.run(base);
        } catch (InterruptedException e) {
            // leadership ended while waiting: onStoppedLeading stops the session
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.error("{} failed to start: {}", component.name(), e.toString(), e);
            healthy.set(false);
            exitCode = 1;
            finished.countDown();
        }
    }

    /** For /healthz?verbose: when each informer last heard from the API server. */
    private java.util.List<String> informerChecks() {
        LeadingSession s;
        synchronized (sessionLock) {
            s = session;
        }
        if (s != null) {
            return s.informerChecks(clock);
        }
        LeaderElector e = elector;
        String why = e == null ? "" : e.standbyReason();
        // a standby is healthy (200): it says why it waits, e.g. the API server unreachable
        return java.util.List.of(
                why.isEmpty()
                        ? "[+]informers not started (not leading)"
                        : "[+]informers not started (not leading: " + why + ")");
    }

    /** After a term ended: the next election may start a new session. */
    private void newTerm() {
        synchronized (sessionLock) {
            session = null;
            sessionEnded = false;
        }
    }

    private void stopController() {
        LeadingSession s;
        synchronized (sessionLock) {
            sessionEnded = true;
            s = session;
        }
        if (s != null) {
            s.stop();
        }
    }

    /** SIGTERM: stop the workers, give the lease back, close the endpoints. */
    public void shutdown() {
        if (shuttingDown) {
            return;
        }
        shuttingDown = true;
        log.info("{} shutting down", component.name());
        LeaderElector e = elector;
        if (e != null) {
            e.stop();
        } else {
            stopController();
            finished.countDown();
        }
        try {
            finished.await();
        } catch (InterruptedException ignored) {
            Thread.currentThread().interrupt();
        }
        if (events != null) {
            events.close();
        }
        if (follower != null) {
            follower.close();
        }
        if (health != null) {
            health.close();
        }
        closed.countDown();
    }
}
