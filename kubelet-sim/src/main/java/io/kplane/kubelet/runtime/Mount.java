package io.kplane.kubelet.runtime;

import java.nio.file.Path;

/**
 * One volume mount of a container: the node's prepared path (a file or directory) seen at
 * {@code containerPath}, read-only if asked.
 */
public record Mount(Path hostPath, String containerPath, boolean readOnly) {}
