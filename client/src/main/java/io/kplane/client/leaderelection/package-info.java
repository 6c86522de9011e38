/**
 * Leader election on coordination.k8s.io/v1 Leases with optimistic concurrency, so only one replica of a
 * controller acts at a time. See {@link io.kplane.client.leaderelection.LeaderElector}.
 */
package io.kplane.client.leaderelection;
