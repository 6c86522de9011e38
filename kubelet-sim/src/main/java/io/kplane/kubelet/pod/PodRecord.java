package io.kplane.kubelet.pod;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The kubelet's persisted knowledge of one pod (file {@code <root>/pods/<uid>/state.json}). */
public final class PodRecord {
    public String uid;
    public String namespace;
    public String name;
    public Instant startTime;
    /** Succeeded or Failed once decided; a terminal pod never runs again. */
    public String terminalPhase;
    /** activeDeadlineSeconds passed: containers are being stopped, then the pod fails. */
    public boolean deadlineExceeded;

    public String reason;
    public String message;
    public List<ContainerRecord> initContainers = new ArrayList<>();
    public List<ContainerRecord> containers = new ArrayList<>();

    public ContainerRecord container(String name, boolean init) {
        for (ContainerRecord r : init ? initContainers : containers) {
            if (r.name.equals(name)) {
                return r;
            }
        }
        ContainerRecord r = new ContainerRecord(name, init);
        (init ? initContainers : containers).add(r);
        return r;
    }

    public List<ContainerRecord> all() {
        List<ContainerRecord> all = new ArrayList<>(initContainers);
        all.addAll(containers);
        return all;
    }
}
