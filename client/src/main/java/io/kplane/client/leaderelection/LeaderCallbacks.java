package io.kplane.client.leaderelection;

/** What a candidate does when it gains or loses leadership. */
public interface LeaderCallbacks {
    /**
     * This candidate is now the leader: start the controllers. Runs on its own thread while the elector
     * keeps renewing the lease (it may block, e.g. until caches sync); that thread is interrupted when
     * leadership ends, and whatever it starts must be stopped by {@link #onStoppedLeading()}.
     */
    void onStartedLeading();

    /**
     * Leadership ended (lost, or released on stop): stop acting at once; most processes exit here. Runs
     * on the elector's thread, which renews nothing meanwhile: return quickly.
     */
    void onStoppedLeading();

    /** Someone (possibly this candidate) was observed holding the lease. */
    default void onNewLeader(String identity) {}
}
