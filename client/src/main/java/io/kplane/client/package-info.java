/**
 * The typed REST client: {@link io.kplane.client.KubeClient} → {@link io.kplane.client.ResourceClient} per resource
 * ({@code client.pods().inNamespace("ns")}), {@link io.kplane.client.RawClient} for any other path. Errors:
 * {@link io.kplane.client.ApiException} (the server's Status: code, reason) and
 * {@link io.kplane.client.ApiConnectionException} (server unreachable). Configuration comes from a kubeconfig
 * ({@link io.kplane.client.config.KubeConfig}) or a {@link io.kplane.client.ClientConfig}.
 */
package io.kplane.client;
