package io.kplane.kubelet.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a host process its volumes at their real mount paths without touching the host's file system:
 * the process starts in a private mount namespace ({@code unshare --mount}, util-linux; with
 * {@code --user --map-root-user} when the kubelet is not root) whose root is a fresh tmpfs that
 * re-binds the host's entries, with the volumes bind-mounted on top, and is {@code chroot}ed into it.
 *
 * <p>Only the directories on the way to a mount path are re-created in the tmpfs (the "shadowed" ones);
 * each of their other entries is a bind of the host's, so the process sees the host as before, plus
 * {@code /scripts/run.sh}. Nothing is created on the host, and the mounts vanish with the process.
 */
public final class MountNamespace {
    private static final Logger log = LoggerFactory.getLogger(MountNamespace.class);
    private static final String TOOLS_PATH = "/usr/sbin:/usr/bin:/sbin:/bin";

    private final List<String> unshare;
    private final String unavailable;

    private MountNamespace(List<String> unshare, String unavailable) {
        this.unshare = unshare;
        this.unavailable = unavailable;
    }

    /** Tries a private mount namespace with a tmpfs and a bind mount: as root, then in a user namespace. */
    public static MountNamespace probe(Path scratch) {
        List<List<String>> candidates = List.of(
                List.of("unshare", "--mount", "--propagation", "private"),
                List.of("unshare", "--user", "--map-root-user", "--mount", "--propagation", "private"));
        String lastError = "unshare not found";
        try {
            Files.createDirectories(scratch);
        } catch (IOException e) {
            return new MountNamespace(null, "cannot create " + scratch + ": " + e.getMessage());
        }
        for (List<String> c : candidates) {
            List<String> argv = new ArrayList<>(c);
            argv.addAll(List.of(
                    "/bin/sh",
                    "-c",
                    "PATH=" + TOOLS_PATH + "; mount -t tmpfs kplane-probe \"$0\" "
                            + "&& mkdir \"$0/x\" && mount --rbind /usr \"$0/x\" && chroot / true",
                    scratch.toString()));
            try {
                Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                if (p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return new MountNamespace(c, null);
                }
                lastError = String.join(" ", c) + ": " + (out.isEmpty() ? "exit " + p.exitValue() : out);
            } catch (IOException e) {
                lastError = e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return new MountNamespace(null, lastError);
    }

    public boolean available() {
        return unavailable == null;
    }

    /** Why volumes cannot be mounted (null when they can). */
    public String unavailableReason() {
        return unavailable;
    }

    /**
     * The argv that runs {@code command} in a private mount namespace with {@code mounts} in place.
     *
     * @param stage   an empty host directory that becomes the process's root (a tmpfs, in its namespace only)
     * @param workDir the working directory as the container sees it
     */
    public List<String> wrap(List<Mount> mounts, Path stage, String workDir, List<String> command) {
        StringBuilder s = new StringBuilder();
        s.append("set -e\nP=$PATH\nPATH=").append(TOOLS_PATH).append('\n');
        s.append("R=").append(q(stage.toString())).append('\n');
        s.append("mount -t tmpfs -o mode=0755 kplane-root \"$R\"\n");
        List<String> targets =
                mounts.stream().map(m -> normalize(m.containerPath())).toList();
        TreeSet<String> shadowed =
                new TreeSet<>(Comparator.comparingInt(MountNamespace::depth).thenComparing(Comparator.naturalOrder()));
        for (String t : targets) {
            for (Path a = Path.of(t).getParent(); a != null; a = a.getParent()) {
                String dir = a.toString();
                if (targets.stream().noneMatch(other -> dir.equals(other) || dir.startsWith(other + "/"))) {
                    shadowed.add(dir);
                }
            }
        }
        for (String dir : shadowed) {
            s.append("mkdir -p ").append(q("$R", dir)).append('\n');
            Path host = Path.of(dir);
            if (!Files.isDirectory(host)) {
                continue;
            }
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(host)) {
                for (Path e : entries) {
                    String full = e.toString();
                    if (shadowed.contains(full) || targets.contains(full)) {
                        continue; // re-created above/below, or a volume goes there
                    }
                    if (Files.isSymbolicLink(e)) {
                        s.append("ln -s ")
                                .append(q(Files.readSymbolicLink(e).toString()))
                                .append(' ')
                                .append(q("$R", full))
                                .append('\n');
                    } else if (Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS)) {
                        s.append("mkdir ")
                                .append(q("$R", full))
                                .append(" && mount --rbind ")
                                .append(q(full))
                                .append(' ')
                                .append(q("$R", full))
                                .append(warn(full));
                    } else {
                        s.append("touch ")
                                .append(q("$R", full))
                                .append(" && mount --bind ")
                                .append(q(full))
                                .append(' ')
                                .append(q("$R", full))
                                .append(warn(full));
                    }
                }
            } catch (IOException ex) {
                log.debug("cannot list {}: {}", host, ex.toString());
            }
        }
        for (Mount m : mounts) {
            String target = normalize(m.containerPath());
            if (Files.isDirectory(m.hostPath())) {
                s.append("mkdir -p ").append(q("$R", target)).append('\n');
            } else {
                s.append("mkdir -p ")
                        .append(q("$R", Path.of(target).getParent().toString()))
                        .append(" && touch ")
                        .append(q("$R", target))
                        .append('\n');
            }
            s.append("mount --bind ")
                    .append(q(m.hostPath().toString()))
                    .append(' ')
                    .append(q("$R", target))
                    .append('\n');
            if (m.readOnly()) {
                s.append("mount -o remount,bind,ro ").append(q("$R", target)).append('\n');
            }
        }
        s.append("cd /\nPATH=$P\n");
        s.append("exec /usr/sbin/chroot \"$R\" /usr/bin/env --chdir=")
                .append(q(workDir))
                .append(" -- \"$@\"\n");
        List<String> argv = new ArrayList<>(unshare);
        argv.addAll(List.of("/bin/sh", "-c", s.toString(), "kplane-mounts"));
        argv.addAll(command);
        return argv;
    }

    /**
     * The argv prefix that runs a command inside the mount namespace (and root) of the container process
     * {@code pid}, started by {@link #wrap}, in {@code workDir} as the container sees it: {@code nsenter}
     * (util-linux) into the same namespaces {@code unshare} made, so exec sees the pod's volumes.
     */
    public List<String> enter(long pid, String workDir) {
        List<String> argv = new ArrayList<>(List.of("nsenter", "--target", Long.toString(pid), "--mount"));
        if (unshare != null && unshare.contains("--user")) {
            argv.addAll(List.of("--user", "--preserve-credentials"));
        }
        argv.addAll(List.of("--root", "--wd=" + workDir, "--"));
        return argv;
    }

    /** The node path behind {@code containerPath}: inside the deepest mount covering it, else the host's. */
    public static Path hostPathOf(String containerPath, List<Mount> mounts) {
        String p = normalize(containerPath);
        Optional<Mount> best = mounts.stream()
                .filter(m -> p.equals(normalize(m.containerPath())) || p.startsWith(normalize(m.containerPath()) + "/"))
                .max(Comparator.comparingInt(m -> normalize(m.containerPath()).length()));
        if (best.isEmpty()) {
            return Path.of(p);
        }
        String rest = p.substring(normalize(best.get().containerPath()).length());
        return rest.isEmpty() ? best.get().hostPath() : best.get().hostPath().resolve(rest.substring(1));
    }

    private static String normalize(String path) {
        String n = Path.of("/").resolve(path).normalize().toString();
        return n.length() > 1 && n.endsWith("/") ? n.substring(0, n.length() - 1) : n;
    }

    /** A host entry that cannot be re-bound is reported in the container's log, not fatal. */
    private static String warn(String full) {
        return " || echo " + q("kplane: " + full + " of the node is not visible in this container") + " >&2\n";
    }

    private static int depth(String path) {
        return Path.of(path).getNameCount();
    }

    private static String q(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** {@code "$R"'/path'}: the stage variable followed by a quoted path. */
    private static String q(String var, String path) {
        return "\"" + var + "\"" + q(path.equals("/") ? "" : path);
    }
}
