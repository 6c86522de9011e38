package io.kplane.client.leaderelection;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link LeaderElector}. Defaults are kube-controller-manager's: a leader that has not
 * renewed for {@code leaseDuration} (15 s) may be replaced; a leader gives up if it cannot renew within
 * {@code renewDeadline} (10 s, so it stops before anyone may take over); attempts every
 * {@code retryPeriod} (2 s).
 *
 * @param namespace namespace of the Lease (e.g. {@code kube-system})
 * @param leaseName name of the Lease (e.g. {@code kplane-job-controller})
 * @param identity  this candidate's unique name (e.g. hostname + "_" + a random suffix)
 */
public record LeaderElectionConfig(
        String namespace,
        String leaseName,
        String identity,
        Duration leaseDuration,
        Duration renewDeadline,
        Duration retryPeriod,
        boolean releaseOnStop) {

    public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(15);
    public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);
    public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);

    public LeaderElectionConfig {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(leaseName, "leaseName");
        if (identity == null || identity.isEmpty()) {
            throw new IllegalArgumentException("a leader election candidate needs an identity");
        }
        if (leaseDuration.compareTo(renewDeadline) <= 0) {
            throw new IllegalArgumentException("leaseDuration must be greater than renewDeadline");
        }
        if (renewDeadline.compareTo(retryPeriod) <= 0) {
            throw new IllegalArgumentException("renewDeadline must be greater than retryPeriod");
        }
    }

    public static LeaderElectionConfig defaults(String namespace, String leaseName, String identity) {
        return new LeaderElectionConfig(
                namespace,
                leaseName,
                identity,
                DEFAULT_LEASE_DURATION,
                DEFAULT_RENEW_DEADLINE,
                DEFAULT_RETRY_PERIOD,
                true);
    }

    public LeaderElectionConfig withTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        return new LeaderElectionConfig(
                namespace, leaseName, identity, leaseDuration, renewDeadline, retryPeriod, releaseOnStop);
    }

    /** A unique identity for this process: {@code host_pid_random}. */
    public static String defaultIdentity() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "localhost";
        }
        return host + "_" + ProcessHandle.current().pid() + "_"
                + Long.toHexString(
                        java.util.concurrent.ThreadLocalRandom.current().nextLong() & 0xffffffL);
    }
}
