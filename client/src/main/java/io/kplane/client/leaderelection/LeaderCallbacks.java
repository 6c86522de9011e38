package io.kplane.client.leaderelection;

/** What a candidate does when it gains or loses leadership. Both run on the elector's thread: return quickly. */
public interface LeaderCallbacks {
    /** This candidate is now the leader: start the controllers. */
    void onStartedLeading();

    /** Leadership ended (lost, or released on stop): stop acting at once; most processes exit here. */
    void onStoppedLeading();

    /** Someone (possibly this candidate) was observed holding the lease. */
    default void onNewLeader(String identity) {
    }
}
