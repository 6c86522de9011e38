package io.kplane.kubelet.stream;

import io.kplane.kubelet.pod.ContainerRecord;
import io.kplane.kubelet.pod.PodRecord;
import io.kplane.kubelet.pod.PodStateStore;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Finds a running container from the pod's persisted record (written by its pod worker when the
 * attempt started): the pod by UID, or by namespace/name through {@code uidByName} (the informer).
 */
public final class StateContainerLookup implements ContainerLookup {
    private final PodStateStore states;
    private final BiFunction<String, String, Optional<String>> uidByName;

    public StateContainerLookup(PodStateStore states, BiFunction<String, String, Optional<String>> uidByName) {
        this.states = states;
        this.uidByName = uidByName;
    }

    @Override
    public Optional<String> anyRunningContainer(String namespace, String pod, String uid) {
        return record(namespace, pod, uid).flatMap(r -> r.all().stream()
                .filter(c -> c.running && c.containerId != null)
                .map((ContainerRecord c) -> c.containerId)
                .findFirst());
    }

    private Optional<PodRecord> record(String namespace, String pod, String uid) {
        Optional<String> podUid = uid != null ? Optional.of(uid) : uidByName.apply(namespace, pod);
        return podUid.flatMap(states::load)
                .filter(r -> namespace.equals(r.namespace) && pod.equals(r.name) && r.terminalPhase == null);
    }

    @Override
    public Optional<String> runningContainer(String namespace, String pod, String uid, String container) {
        Optional<String> podUid = uid != null ? Optional.of(uid) : uidByName.apply(namespace, pod);
        Optional<PodRecord> record = podUid.flatMap(states::load)
                .filter(r -> namespace.equals(r.namespace) && pod.equals(r.name) && r.terminalPhase == null);
        return record.flatMap(r -> r.all().stream()
                .filter(c -> c.name.equals(container) && c.running && c.containerId != null)
                .map((ContainerRecord c) -> c.containerId)
                .findFirst());
    }
}
