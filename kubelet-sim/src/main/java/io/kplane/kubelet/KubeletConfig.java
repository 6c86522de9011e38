package io.kplane.kubelet;

import io.kplane.client.ClientConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * Settings of one kubelet-sim.
 *
 * @param port           port of the kubelet endpoint (logs, healthz, metrics); 0 picks a free one
 * @param runtime        {@code process} or {@code docker}
 * @param dockerHost     Docker Engine API address for the docker runtime ({@code unix:///...})
 * @param tokens         bearer tokens accepted by the kubelet endpoint (empty: no authentication)
 * @param nodeAddress    advertised on the Node for the API server to reach this kubelet (an IP or a host
 *                       name; see {@link io.kplane.kubelet.node.AdvertisedAddress})
 */
public record KubeletConfig(
        ClientConfig client,
        String nodeName,
        String bind,
        int port,
        Path rootDir,
        String runtime,
        String dockerHost,
        int maxPods,
        Duration leaseInterval,
        Duration nodeStatusInterval,
        Duration crashLoopBase,
        Duration crashLoopMax,
        long logMaxBytes,
        int logMaxFiles,
        Set<String> tokens,
        String nodeAddress) {

    public static KubeletConfig defaults(ClientConfig client, String nodeName, Path rootDir) {
        return new KubeletConfig(
                client,
                nodeName,
                "127.0.0.1",
                0,
                rootDir,
                "process",
                null,
                110,
                Duration.ofSeconds(10),
                Duration.ofMinutes(1),
                Duration.ofSeconds(10),
                Duration.ofMinutes(5),
                10L * 1024 * 1024,
                5,
                Set.of(),
                io.kplane.kubelet.node.AdvertisedAddress.DEFAULT);
    }

    public KubeletConfig withRuntime(String runtime, String dockerHost) {
        return new KubeletConfig(
                client,
                nodeName,
                bind,
                port,
                rootDir,
                runtime,
                dockerHost,
                maxPods,
                leaseInterval,
                nodeStatusInterval,
                crashLoopBase,
                crashLoopMax,
                logMaxBytes,
                logMaxFiles,
                tokens,
                nodeAddress);
    }

    public KubeletConfig withCrashLoop(Duration base, Duration max) {
        return new KubeletConfig(
                client,
                nodeName,
                bind,
                port,
                rootDir,
                runtime,
                dockerHost,
                maxPods,
                leaseInterval,
                nodeStatusInterval,
                base,
                max,
                logMaxBytes,
                logMaxFiles,
                tokens,
                nodeAddress);
    }

    public KubeletConfig withLeaseInterval(Duration lease) {
        return new KubeletConfig(
                client,
                nodeName,
                bind,
                port,
                rootDir,
                runtime,
                dockerHost,
                maxPods,
                lease,
                nodeStatusInterval,
                crashLoopBase,
                crashLoopMax,
                logMaxBytes,
                logMaxFiles,
                tokens,
                nodeAddress);
    }

    public KubeletConfig withMaxPods(int max) {
        return new KubeletConfig(
                client,
                nodeName,
                bind,
                port,
                rootDir,
                runtime,
                dockerHost,
                max,
                leaseInterval,
                nodeStatusInterval,
                crashLoopBase,
                crashLoopMax,
                logMaxBytes,
                logMaxFiles,
                tokens,
                nodeAddress);
    }

    public KubeletConfig withTokens(Set<String> t) {
        return new KubeletConfig(
                client,
                nodeName,
                bind,
                port,
                rootDir,
                runtime,
                dockerHost,
                maxPods,
                leaseInterval,
                nodeStatusInterval,
                crashLoopBase,
                crashLoopMax,
                logMaxBytes,
                logMaxFiles,
                t,
                nodeAddress);
    }

    public KubeletConfig withPort(int p) {
        return new KubeletConfig(
                client,
                nodeName,
                bind,
                p,
                rootDir,
                runtime,
                dockerHost,
                maxPods,
                leaseInterval,
                nodeStatusInterval,
                crashLoopBase,
                crashLoopMax,
                logMaxBytes,
                logMaxFiles,
                tokens,
                nodeAddress);
    }

    public KubeletConfig withNodeAddress(String address) {
        return new KubeletConfig(
                client,
                nodeName,
                bind,
                port,
                rootDir,
                runtime,
                dockerHost,
                maxPods,
                leaseInterval,
                nodeStatusInterval,
                crashLoopBase,
                crashLoopMax,
                logMaxBytes,
                logMaxFiles,
                tokens,
                address);
    }
}
