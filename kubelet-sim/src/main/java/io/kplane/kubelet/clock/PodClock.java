package io.kplane.kubelet.clock;

import io.kplane.api.clock.ClusterTime;
import io.kplane.client.time.Clock;
import io.kplane.client.time.ClusterClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * What time a container's processes see, decided at container start (docs/clock.md, "What pods see").
 *
 * <p>Process runtime: with Debian's libfaketime installed, a dynamically linked program is started with
 * {@code LD_PRELOAD} and {@code FAKETIME} so it reads the cluster time: an Offset clock as
 * {@code FAKETIME=+Ns}, a Frozen one as a stopped clock at its instant. A Rate clock cannot be shown
 * honestly (libfaketime counts a speed-up from each process's own start, so a shell's children would
 * disagree), so such a container gets the offset at its start and runs at wall speed. Statically linked
 * programs (busybox) ignore {@code LD_PRELOAD}. Docker runtime: containers see the host's time.
 * Every case where a pod does not see cluster time is said in an Event ({@link ClockNotices}).
 */
public final class PodClock {
    static final List<Path> LIBRARY_PATHS = List.of(
            Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/faketime/libfaketime.so.1"));
    private static final DateTimeFormatter FROZEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
    private static final Path LIBRARY =
            LIBRARY_PATHS.stream().filter(Files::isRegularFile).findFirst().orElse(null);

    private PodClock() {}

    /** True when libfaketime is installed here. */
    public static boolean libfaketimeAvailable() {
        return LIBRARY != null;
    }

    /** The environment that makes a host process read the cluster time; empty in real time. */
    public static Map<String, String> processEnvironment(Clock clock) {
        if (!(clock instanceof ClusterClock cluster) || cluster.time().isReal() || LIBRARY == null) {
            return Map.of();
        }
        return Map.of(
                "LD_PRELOAD",
                LIBRARY.toString(),
                "FAKETIME",
                faketime(cluster.time(), Instant.now()),
                "FAKETIME_DONT_RESET",
                "1");
    }

    /** libfaketime's spec for the cluster time at wall instant {@code wall}. */
    static String faketime(ClusterTime time, Instant wall) {
        if (time.isFrozen()) {
            return FROZEN.format(time.clusterAnchor());
        }
        Duration offset = time.offsetAt(wall);
        long seconds = offset.getSeconds() + (offset.getNano() >= 500_000_000 ? 1 : 0);
        return (seconds >= 0 ? "+" : "") + seconds + "s";
    }

    /** Why a container started now would not see cluster time, or null when it does. */
    public static String limitation(Clock clock, String runtime) {
        if (!(clock instanceof ClusterClock cluster) || cluster.time().isReal()) {
            return null;
        }
        if (!"process".equals(runtime)) {
            return "the cluster clock is " + cluster.time().mode() + " but containers of the " + runtime
                    + " runtime see the host's time";
        }
        if (LIBRARY == null) {
            return "the cluster clock is " + cluster.time().mode()
                    + " but libfaketime is not installed: containers see the host's time";
        }
        if (cluster.time().rate() > 1) {
            return "the cluster clock runs at rate x" + cluster.time().rate()
                    + ": containers start at the cluster time but run at wall speed";
        }
        return null;
    }
}
