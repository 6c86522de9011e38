package io.kplane.kubelet.pod;

import java.time.Instant;

/** How the parts of a pod worker ask for another pass: now (an exit, a failure) or at a time (back-off, deadline). */
interface WakeUps {
    void wakeUp();

    /** Keeps the earliest pending time: a later request does not postpone an earlier one. */
    void wakeAt(Instant at);
}
