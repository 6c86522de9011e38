package io.kplane.kubelet.runtime;

import io.kplane.kubelet.logs.CriLogWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything a runtime needs to start one attempt of one container of a pod. {@code command} and
 * {@code args} are already expanded ({@code $(VAR)}) and {@code env} resolved (fieldRefs).
 *
 * @param attempt    0 for the first start, then the restart count; part of the runtime's name for it
 * @param scratchDir a private directory of the pod (the process runtime's default working directory)
 * @param mounts     the container's volume mounts, parents before children (empty: none)
 * @param stdio      the spec's {@code stdin}/{@code stdinOnce}/{@code tty} (what {@code attach} finds)
 */
public record ContainerLaunch(
        String podUid,
        String podNamespace,
        String podName,
        String containerName,
        int attempt,
        String image,
        String imagePullPolicy,
        List<String> command,
        List<String> args,
        Map<String, String> env,
        String workingDir,
        Path scratchDir,
        CriLogWriter log,
        List<Mount> mounts,
        ContainerStdio stdio) {

    public ContainerLaunch {
        mounts = mounts == null ? List.of() : List.copyOf(mounts);
        stdio = stdio == null ? ContainerStdio.NONE : stdio;
    }

    /** A launch whose container keeps no stdin open and has no terminal. */
    public ContainerLaunch(
            String podUid,
            String podNamespace,
            String podName,
            String containerName,
            int attempt,
            String image,
            String imagePullPolicy,
            List<String> command,
            List<String> args,
            Map<String, String> env,
            String workingDir,
            Path scratchDir,
            CriLogWriter log,
            List<Mount> mounts) {
        this(
                podUid,
                podNamespace,
                podName,
                containerName,
                attempt,
                image,
                imagePullPolicy,
                command,
                args,
                env,
                workingDir,
                scratchDir,
                log,
                mounts,
                ContainerStdio.NONE);
    }

    /** A launch without volume mounts. */
    public ContainerLaunch(
            String podUid,
            String podNamespace,
            String podName,
            String containerName,
            int attempt,
            String image,
            String imagePullPolicy,
            List<String> command,
            List<String> args,
            Map<String, String> env,
            String workingDir,
            Path scratchDir,
            CriLogWriter log) {
        this(
                podUid,
                podNamespace,
                podName,
                containerName,
                attempt,
                image,
                imagePullPolicy,
                command,
                args,
                env,
                workingDir,
                scratchDir,
                log,
                List.of());
    }

    /** A short description for log lines. */
    public String describe() {
        return podNamespace + "/" + podName + "/" + containerName + "#" + attempt;
    }
}
