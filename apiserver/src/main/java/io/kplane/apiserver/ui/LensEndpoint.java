package io.kplane.apiserver.ui;

import java.time.Instant;

/**
 * One component's announced lens endpoint, read from its {@code kplane-lens-<component>} Lease.
 *
 * @param component the Lease name without the {@code kplane-lens-} prefix (e.g. {@code job-controller},
 *                  {@code kubelet-node-1})
 * @param url       {@code http://host:port} from the {@code lens.kplane.io/endpoint} annotation
 * @param renewTime the Lease's last renewal, or null
 * @param stale     true when the Lease was not renewed within its duration (the component is likely gone)
 */
public record LensEndpoint(String component, String url, Instant renewTime, boolean stale) {}
