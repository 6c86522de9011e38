package io.kplane.client.lens;

import io.kplane.api.coordination.Lease;
import io.kplane.api.coordination.LeaseSpec;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.KubeClientException;
import io.kplane.client.ResourceClient;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Announces where a component serves its lens: a Lease {@code kube-system/kplane-lens-<component>}
 * (kubelets: {@code kplane-lens-kubelet-<node>}) with annotation {@code lens.kplane.io/endpoint:
 * http://host:port}, holder = the process identity, renewed every {@link #RENEW} (lease duration
 * {@link #DURATION}). The apiserver's /ui proxy lists these Leases; a Lease not renewed within its
 * duration belongs to a component that is gone.
 *
 * <p>Renewals run on the wall clock, never on the cluster clock the component's own work follows:
 * whether a process is alive is a fact about real time (docs/clock.md, "What stays on wall time"), and
 * the apiserver judges a Lease's age by its own wall clock. A component following a cluster clock
 * frozen or set back to yesterday would otherwise stamp {@code renewTime} a day in the past (the lens
 * UI then drops it as gone) or, frozen, never fire its renewal timer at all.
 */
public final class LensAnnouncer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LensAnnouncer.class);
    public static final String NAMESPACE = "kube-system";
    public static final String PREFIX = "kplane-lens-";
    public static final String ENDPOINT_ANNOTATION = "lens.kplane.io/endpoint";
    public static final String COMPONENT_LABEL = "lens.kplane.io/component";
    static final Duration RENEW = Duration.ofSeconds(10);
    static final Duration DURATION = Duration.ofSeconds(40);

    private final ResourceClient<Lease> leases;
    private final Clock clock;
    private final String name;
    private final String component;
    private final String endpoint;
    private final String identity;
    private volatile Clock.Timer timer;
    private volatile boolean closed;

    public LensAnnouncer(KubeClient client, String component, String endpoint, String identity) {
        this(client, Clock.system(), component, endpoint, identity);
    }

    /** {@code clock} stands for the wall clock in tests (a {@link io.kplane.client.time.FakeClock}). */
    LensAnnouncer(KubeClient client, Clock clock, String component, String endpoint, String identity) {
        this.leases = client.leases().inNamespace(NAMESPACE);
        this.clock = clock;
        this.component = component;
        this.name = PREFIX + component;
        this.endpoint = endpoint;
        this.identity = identity;
    }

    /** The Lease name for {@code component}. */
    public static String leaseName(String component) {
        return PREFIX + component;
    }

    /** Announces now (failures are logged and retried at the next renewal) and keeps renewing. */
    public LensAnnouncer start() {
        renew();
        return this;
    }

    private void renew() {
        if (closed) {
            return;
        }
        try {
            announce();
        } catch (KubeClientException e) {
            log.info("lens announcement {}/{} not written: {}", NAMESPACE, name, e.getMessage());
        } catch (RuntimeException e) {
            log.warn("lens announcement {}/{} failed: {}", NAMESPACE, name, e.toString());
        }
        if (!closed) {
            timer = clock.schedule(RENEW, this::renew);
        }
    }

    /** Creates or updates the Lease once. */
    public void announce() {
        Instant now = clock.now();
        Lease current = leases.find(name).orElse(null);
        Map<String, String> annotations = new HashMap<>();
        Map<String, String> labels = new HashMap<>();
        if (current != null) {
            annotations.putAll(current.metadata().annotationsOrEmpty());
            labels.putAll(current.metadata().labelsOrEmpty());
        }
        annotations.put(ENDPOINT_ANNOTATION, endpoint);
        labels.put(COMPONENT_LABEL, component.length() > 63 ? component.substring(0, 63) : component);
        LeaseSpec spec = new LeaseSpec(
                identity,
                (int) DURATION.toSeconds(),
                current == null
                                || current.spec() == null
                                || !identity.equals(current.spec().holderIdentity())
                        ? now
                        : current.spec().acquireTime(),
                now,
                null,
                null,
                null);
        if (current == null) {
            ObjectMeta meta = ObjectMeta.named(NAMESPACE, name)
                    .withAnnotations(annotations)
                    .withLabels(labels);
            try {
                leases.create(new Lease(null, null, meta, spec));
            } catch (ApiException e) {
                if (!e.isAlreadyExists()) {
                    throw e;
                }
            }
            return;
        }
        try {
            leases.update(current.withMetadata(
                            current.metadata().withAnnotations(annotations).withLabels(labels))
                    .withSpec(spec));
        } catch (ApiException e) {
            if (!e.isConflict()) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        Clock.Timer t = timer;
        if (t != null) {
            t.cancel();
        }
    }
}
