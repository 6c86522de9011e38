package io.kplane.kubelet;

import org.junit.jupiter.api.BeforeAll;

/** Pod volumes with containers as host processes: each in a private mount namespace. */
class ProcessRuntimePodVolumesTest extends PodVolumesContract {

    @BeforeAll
    static void start() throws Exception {
        env = new KubeletFixture("proc-vol-node", "process", null);
    }
}
