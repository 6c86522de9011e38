/**
 * Expectations let a controller wait for its own writes to come back through its informer before acting
 * again on stale cache contents: {@link io.kplane.client.expectations.ControllerExpectations} (counts of expected
 * creations/deletions per key, expiring after 5 minutes on the clock) and
 * {@link io.kplane.client.expectations.UIDTrackingExpectations} (pod UIDs whose finalizer removal is expected).
 */
package io.kplane.client.expectations;
