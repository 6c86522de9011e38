package io.kplane.client.leaderelection;

import io.kplane.client.KubeClient;
import io.kplane.client.time.Clock;
import java.time.Duration;

/** A leader-election candidate as its own process, so a test can kill -9 it. Args: url identity leaseMs renewMs retryMs. */
public final class LeaderCandidateMain {
    private LeaderCandidateMain() {}

    public static void main(String[] args) throws Exception {
        LeaderElectionConfig config = LeaderElectionConfig.defaults("leader-test", "candidates", args[1])
                .withTimings(
                        Duration.ofMillis(Long.parseLong(args[2])),
                        Duration.ofMillis(Long.parseLong(args[3])),
                        Duration.ofMillis(Long.parseLong(args[4])));
        LeaderElector elector =
                new LeaderElector(KubeClient.forServer(args[0]), config, Clock.system(), new LeaderCallbacks() {
                    @Override
                    public void onStartedLeading() {
                        System.out.println("LEADING " + args[1]);
                        System.out.flush();
                    }

                    @Override
                    public void onStoppedLeading() {
                        System.out.println("STOPPED " + args[1]);
                        System.out.flush();
                    }
                });
        elector.run();
    }
}
