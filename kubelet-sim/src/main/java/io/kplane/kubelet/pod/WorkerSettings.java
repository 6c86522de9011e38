package io.kplane.kubelet.pod;

import io.kplane.client.events.EventRecorder;
import io.kplane.client.time.Clock;
import io.kplane.kubelet.logs.LogRegistry;
import io.kplane.kubelet.runtime.ContainerRuntime;
import io.kplane.kubelet.volume.VolumeManager;
import java.nio.file.Path;

/** What every pod worker shares. */
public record WorkerSettings(
        String nodeName,
        String hostIp,
        Path rootDir,
        ContainerRuntime runtime,
        PodStateStore stateStore,
        PodStatusWriter statusWriter,
        EventRecorder events,
        LogRegistry logs,
        CrashLoopBackoff backoff,
        long logMaxBytes,
        int logMaxFiles,
        Clock clock,
        VolumeManager volumes) {}
