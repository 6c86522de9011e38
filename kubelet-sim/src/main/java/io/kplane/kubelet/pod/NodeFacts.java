package io.kplane.kubelet.pod;

import java.lang.management.ManagementFactory;

/** Facts about the host the node reports. */
public final class NodeFacts {
    private NodeFacts() {}

    public static long memoryBytes() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getTotalMemorySize();
        }
        return Runtime.getRuntime().maxMemory();
    }
}
